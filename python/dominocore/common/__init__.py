"""The neutral layer both engines build on (docs/architecture.md): value
types (tiles, moves, results), the error family, the rules base, player
views, messages, argument checks, and the drivers that decide no rule
(``simulation``, ``vector_env``, ``progress``, ``extensions``).

Neither engine owns it: the compiled one (``dominocore.native``) and the
pure-Python reference (``dominocore.reference``) share only this, so their
values, messages and argument checks are one and the same, and everything
that decides a rule is written twice, once in each, and compared. It needs
numpy, tqdm and the standard library, and imports nothing above it.
"""
