"""Value types shared by both implementations: tiles, moves, rules objects,
the error family and the argument checks.

Neither implementation owns them: the compiled core (``dominocore._native``)
and the pure-Python reference (``dominocore.reference``) both build on this
package, so their values, messages and validation are one and the same. It
needs only the standard library.
"""
