"""Shared pytest setup: Qt tests run without a screen; paths to the sample pages and shared data."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "resources" / "samples"
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    """The bundled sample folder (resources/samples)."""
    return SAMPLES


def pytest_collection_modifyitems(config, items):
    """Mark every test that needs ``../shared`` (the real corpus) ``slow``: ``-m "not slow"``
    leaves them out for a quick run."""
    for item in items:
        if "shared_dir" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the repository (real corpus and labelled pairs); skips if absent."""
    if not (SHARED / "pairs" / "labels.csv").is_file() or not (SHARED / "corpus").is_dir():
        pytest.skip(f"needs the shared data folder at {SHARED} (real corpus and labelled pairs); not present here")
    return SHARED


@pytest.fixture(scope="session")
def sample_scan():
    """One scan of the bundled samples, shared by the tests that only read it."""
    from dedup_gui.core.pipeline.scan import scan_folder

    return scan_folder(SAMPLES)


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Tests never read or write the user's feature cache or settings."""
    folder = tmp_path_factory.mktemp("xdg-cache")
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old
