"""The ``rsb`` command line (contract: ARCHITECTURE.md), one module per subcommand.

* :mod:`.parser` -- every subcommand and its flags (imports nothing heavy);
* :mod:`.app` -- :func:`main`: parse, then import and run the one handler;
* :mod:`.values` -- the flags' values through the one safe expression parser;
* :mod:`.errors` -- one line naming the flag; the one error-to-flag mapping;
* :mod:`.names` -- the names a flag may take;
* handlers: :mod:`.verify`, :mod:`.derive`, :mod:`.optimize`, :mod:`.simulate`,
  :mod:`.bench`, :mod:`.slopes`, :mod:`.reproduce`, :mod:`.plot`.
"""

from .app import main

__all__ = ["main"]
