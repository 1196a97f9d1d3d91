"""dedup-gui entry point: ``python app.py`` opens the GUI; ``python app.py scan|classify|evaluate``
runs headless.  See ``python app.py --help``."""

import multiprocessing
import sys

from dedup_gui.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
