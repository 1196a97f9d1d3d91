"""Issue 20: a chart drawn at a transient tiny size (a widget laid out before it has its real
size) printed matplotlib's "constrained_layout not applied because axes sizes collapsed to zero"
to the user's terminal, once per place that drew.

The check runs in a fresh interpreter and reads its stderr, the user's terminal: pytest's own
warning capture (``recwarn``, ``pytest.warns``) first sets every warning to "always", which
would override the app's filter, and it restores the filter list after collection, which would
drop a filter installed at import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from dedup_gui.core.views.charts import LIGHT
from dedup_gui.gui.charts.chart_view import save_figure
from dedup_gui.gui.charts.figure_image import new_figure, render_figure

def chart(fig):
    ax = fig.add_subplot()
    ax.set_title("a title far wider than twenty pixels")
    ax.set_xlabel("distance")
    ax.plot([0, 1], [1, 0])

fig, rgba, width, height, _ = render_figure(chart, 20, 20, 100.0)
print(width, height, len(rgba))
save_figure(fig, sys.argv[1])
print("saved", flush=True)
other = new_figure(20, 20, 100.0)  # the same collapse in a draw that is not the app's
chart(other)
other.canvas.draw()
"""


def test_a_chart_drawn_at_20_by_20_pixels_prints_no_collapsed_layout_warning(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    env.update(PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "tiny.png")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["20 20 1600", "saved"]  # drawn: 20 x 20 RGBA pixels, then saved
    app_lines = [line for line in done.stderr.splitlines() if "dedup_gui" in line]
    assert app_lines == []  # render_figure, fit_texts and save_figure's draws: nothing printed
    # The filter is narrow: the same warning from a draw outside the app still shows (once).
    assert done.stderr.count("constrained_layout not applied because axes sizes collapsed to zero") == 1
    assert "<string>:" in done.stderr
