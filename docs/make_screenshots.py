"""Remake the screenshots in docs/screenshots/ with ``app.py --screenshot`` (off screen).

Run from the repository root: ``python docs/make_screenshots.py``.  Chinese text needs a CJK
font on the machine (e.g. ``apt-get install fonts-noto-cjk``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "screenshots"
SAMPLES = "resources/samples"
AUDAX = ["site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html"]
NIGHT_RIDE = ["site/articles/night-ride-safety.html", "print/night-ride-safety.html"]
TEA = ["zh/spring-tea-picking-gbk.html", "zh/spring-tea-picking-utf8.html"]
#: (file name, view, pair to select or None for the first duplicate pair)
SHOTS = [
    ("window.png", "window", AUDAX),
    ("histogram.png", "histogram", AUDAX),
    ("map.png", "map", AUDAX),
    ("thresholds.png", "thresholds", None),
    ("clusters.png", "clusters", AUDAX),
    ("text-diff.png", "text-diff", AUDAX),
    ("layout-diff.png", "layout-diff", NIGHT_RIDE),
    ("fingerprints.png", "fingerprints", AUDAX),
    ("rendered.png", "rendered", NIGHT_RIDE),
    ("text-diff-zh.png", "text-diff", TEA),
]


def main() -> int:
    """Make every screenshot; return 0, or 1 if one failed."""
    OUT.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    failed = 0
    for name, view, pair in SHOTS:
        cmd = [sys.executable, "app.py", SAMPLES, "--screenshot", str(OUT / name), "--view", view]
        cmd += ["--pair", *pair] if pair else []
        done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, check=False)
        print(f"{name}: {'ok' if done.returncode == 0 else done.stderr.strip()}")
        failed |= done.returncode != 0
    return int(failed)


if __name__ == "__main__":
    sys.exit(main())
