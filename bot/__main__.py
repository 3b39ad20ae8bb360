"""``python -m bot``: the same as the ``rummy-bot`` command."""

from __future__ import annotations

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
