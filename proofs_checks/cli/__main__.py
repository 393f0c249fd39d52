"""``python -m proofs_checks.cli``: the ``rsb`` command without the console script."""

import sys

from .app import main

sys.exit(main())
