"""Module-level task functions for the page-pool tests (worker processes import them by name)."""

import os
import time

from dedup_gui.core.scan import analyse_file


def hang_on_marked_files(source, settings):
    """Like analyse_file, but sleeps forever on files named hang*.html."""
    if os.path.basename(source.abspath).startswith("hang"):
        time.sleep(3600)
    return analyse_file(source, settings)


def die_on_marked_files(source, settings):
    """Like analyse_file, but kills its own worker process on files named die*.html."""
    if os.path.basename(source.abspath).startswith("die"):
        os._exit(9)
    return analyse_file(source, settings)
