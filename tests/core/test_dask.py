"""The per-page stage on a Dask distributed cluster gives the same result as a local scan."""

import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.scan import scan_folder

from ..conftest import SAMPLES

distributed = pytest.importorskip("distributed", reason="the 'distributed' package is not installed")


def test_scan_on_a_local_cluster_equals_a_local_scan():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = scan_folder(SAMPLES, ScanSettings(dask_scheduler=cluster.scheduler_address, use_cache=False))
    local = scan_folder(SAMPLES, ScanSettings(workers=1, use_cache=False))
    assert [(p.path, p.sha1, p.simhash, p.main_text) for p in remote.pages] == [
        (p.path, p.sha1, p.simhash, p.main_text) for p in local.pages
    ]
    assert [(p.left, p.right, p.type, p.scores) for p in remote.pairs] == [
        (p.left, p.right, p.type, p.scores) for p in local.pairs
    ]
    assert [c.pages for c in remote.clusters] == [c.pages for c in local.clusters]
    # the samples' crawl archive: its records are read on the Dask workers too, one record a task
    assert sum(p.record_offset is not None for p in remote.pages) == 4


def test_workers_that_cannot_load_the_engine_stop_the_scan_with_one_clear_error(tmp_path):
    # A worker without dedup-gui installed (simulated: its preload script blocks the import)
    # would fail every page with the same deserialization error: the scan must say it once.
    blocker = tmp_path / "no_dedup_gui.py"
    blocker.write_text("import sys\nsys.modules['dedup_gui'] = None  # 'import dedup_gui' now fails\n")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, preload=[str(blocker)]
        ) as cluster,
        pytest.raises(ConnectionError, match="cannot run dedup-gui .*install dedup-gui.* on every worker"),
    ):
        scan_folder(SAMPLES, ScanSettings(dask_scheduler=cluster.scheduler_address, use_cache=False))


def test_a_scheduler_without_workers_is_reported_not_waited_on_forever(monkeypatch):
    from dedup_gui.core.pipeline import executors as scan_module

    monkeypatch.setattr(scan_module, "DASK_WORKER_WAIT", 2.0)
    with (
        distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster,
        pytest.raises(ConnectionError, match="no Dask worker is connected .*dask worker"),
    ):
        scan_folder(SAMPLES, ScanSettings(dask_scheduler=cluster.scheduler_address, use_cache=False))
