"""``evaluate --methods`` and ``--pr-curves`` as a user runs them."""

from .conftest import SAMPLES
from .test_cli import run


def test_evaluate_with_methods_and_pr_curves(tmp_path):
    png = tmp_path / "pr.png"
    proc = run(
        "evaluate", "--pairs", str(SAMPLES / "EXPECTED.csv"), "--methods", "simhash,shingles", "--pr-curves", str(png)
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "macro-F1: 1.000" in out  # the classifier's five-type evaluation still comes first
    assert 'methods on "duplicate of any type?" (16 pairs, 7 duplicates, 9 distinct)' in out
    simhash = next(line for line in out.splitlines() if line.startswith("SimHash (64-bit)"))
    assert simhash.split() == ["SimHash", "(64-bit)", "k", "<=", "3", "1.000", "0.714", "0.833",
                               "k", "<=", "10", "1.000", "1.000", "1.000"]  # fmt: skip
    assert "I-Match" not in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_pr_curves_alone_draws_all_methods(tmp_path):
    png = tmp_path / "all.png"
    proc = run("evaluate", "--pairs", str(SAMPLES / "EXPECTED.csv"), "--pr-curves", str(png))
    assert proc.returncode == 0, proc.stderr
    assert "I-Match" in proc.stdout and "URL (normalized, mirrors)" in proc.stdout and png.is_file()


def test_unknown_method_is_a_clear_error():
    proc = run("evaluate", "--pairs", str(SAMPLES / "EXPECTED.csv"), "--methods", "simhash,magic")
    assert proc.returncode == 1 and "unknown method magic" in proc.stderr


def test_evaluate_names_the_extractor_and_thresholds_it_used():
    # A new-user test: neither the CLI nor the window said which extractor and thresholds
    # produced the numbers; the line is the one the Method comparison tab shows.
    proc = run("evaluate", "--pairs", str(SAMPLES / "EXPECTED.csv"), "--content-same", "0.8", "--layout-same", "0.3",
               "--hamming-k", "10", "--extractor", "resiliparse", "--min-tokens", "5")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(
        "settings: extractor resiliparse; min tokens 5; content same >= 0.800; partial >= 0.200; "
        "layout same >= 0.300; k <= 10\npairs evaluated: 16\n"
    )
