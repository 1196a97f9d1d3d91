"""Module-level task functions for the page-pool tests (worker processes import them by name)."""

import os
import time

from dedup_gui.core.pipeline.executors import analyse_file


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


def block_on_marked_files(source, settings):
    """Like analyse_file, but never ends on files named sleep*.html (asleep) or busy*.html
    (one long C call that holds the GIL); first writes ``<name>-<pid>`` into the folder named by
    the environment variable DEDUP_TEST_MARKS, so a test knows the worker is in the page."""
    name = os.path.basename(source.abspath)
    if name.startswith(("sleep", "busy")):
        with open(os.path.join(os.environ["DEDUP_TEST_MARKS"], f"{name.split('.')[0]}-{os.getpid()}"), "w"):
            pass
        if name.startswith("sleep"):
            time.sleep(3600)
        sum(range(10**13))  # hours in C, never releasing the GIL
    return analyse_file(source, settings)


def slow_on_marked_files(source, settings):
    """Like analyse_file, but takes 0.8 s more on files named slow*.html (a huge page)."""
    if os.path.basename(source.abspath).startswith("slow"):
        time.sleep(0.8)
    return analyse_file(source, settings)
