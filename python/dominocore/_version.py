"""The version of dominocore: written here only. The build reads it into the
package metadata (pyproject.toml) and into the compiled core (CMakeLists.txt)."""

__version__ = "0.1.0"
