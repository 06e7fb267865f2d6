"""Builds tests/cython/dominocore_playout.pyx against the installed dominocore:
the setuptools example of docs/cython.md (`python setup.py build_ext --inplace`)."""

import sys

import dominocore
from Cython.Build import cythonize
from setuptools import Extension, setup

extension = Extension(
    "dominocore_playout",
    ["dominocore_playout.pyx"],
    language="c++",
    include_dirs=[dominocore.get_include()],
    library_dirs=dominocore.get_library_dirs(),
    libraries=dominocore.get_libraries(),
    extra_compile_args=["/std:c++17"] if sys.platform == "win32" else ["-std=c++17", "-O2"],
)

setup(
    name="dominocore-playout",
    ext_modules=cythonize([extension], include_path=[dominocore.get_include()], language_level=3),
)
