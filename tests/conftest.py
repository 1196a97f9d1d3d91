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


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the repository (real corpus and labelled pairs); skips if absent."""
    if not (SHARED / "pairs" / "labels.csv").is_file() or not (SHARED / "corpus").is_dir():
        pytest.skip(f"needs the shared data folder at {SHARED} (real corpus and labelled pairs); not present here")
    return SHARED


@pytest.fixture(scope="session")
def sample_scan():
    """One scan of the bundled samples, shared by the tests that only read it."""
    from dedup_gui.core.scan import scan_folder

    return scan_folder(SAMPLES)
