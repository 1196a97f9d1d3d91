"""The MinHash convergence chart of the teaching views."""

from __future__ import annotations

import doctest

import pytest
from matplotlib.figure import Figure

from dedup_gui.core.teaching import charts as teaching_charts
from dedup_gui.core.teaching.charts import convergence_figure, standard_error
from dedup_gui.core.teaching.jaccard_steps import compare_sets, minhash_convergence, toy_example
from dedup_gui.core.views.charts import DARK


def test_doctests():
    assert doctest.testmod(teaching_charts).failed == 0


def test_the_figure_draws_one_estimate_per_permutation_and_the_exact_value():
    toy = toy_example()
    convergence = minhash_convergence(toy.a, toy.b, 64)
    fig = convergence_figure(toy, convergence)
    lines = {line.get_gid(): line for line in fig.axes[0].get_lines()}
    assert list(lines["estimate"].get_xdata()) == list(range(1, 65))
    assert list(lines["estimate"].get_ydata()) == [e for _, e in convergence]
    assert list(lines["exact"].get_ydata()) == pytest.approx([2 / 7, 2 / 7])
    assert "2/7" in lines["exact"].get_label()


def test_the_figure_is_redrawn_into_a_given_figure_with_a_palette():
    toy = toy_example()
    fig = Figure()
    convergence_figure(toy, minhash_convergence(toy.a, toy.b, 8), fig=fig)
    out = convergence_figure(toy, minhash_convergence(toy.a, toy.b, 16), palette=DARK, fig=fig)
    assert out is fig and len(fig.axes) == 1
    assert len(fig.axes[0].get_lines()[-1].get_xdata()) == 16


def test_standard_error_shrinks_with_permutations():
    assert standard_error(0.3, 400) == pytest.approx(standard_error(0.3, 100) / 2)
    assert standard_error(1.0, 10) == 0.0


def test_the_permutation_axis_has_whole_numbers_only():
    # With 16 permutations the x axis read 2.5, 5.0, 7.5: there is no half a hash function.
    toy = toy_example()
    fig = convergence_figure(toy, minhash_convergence(toy.a, toy.b, 16), fig=Figure(figsize=(4, 3)))
    fig.canvas.draw()  # ticks as drawn in a narrow panel (at 6 x 3 inches they happened to be even)
    ax = fig.axes[0]
    low, high = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if low <= t <= high]
    assert len(ticks) >= 3 and all(float(t).is_integer() for t in ticks), ticks


def test_two_empty_sets_have_no_exact_value_in_the_chart():
    # A teacher emptied both toy sentences: the formulas said "0/0: undefined" while the legend
    # said "exact Jaccard 0/0 = 0.000" over a dashed line at 0.
    empty = compare_sets([], [])
    fig = convergence_figure(empty, minhash_convergence(empty.a, empty.b, 8))
    lines = {line.get_gid(): line for line in fig.axes[0].get_lines()}
    assert lines["exact"].get_label() == "exact Jaccard 0/0: undefined"
    assert all(y != y for y in lines["exact"].get_ydata())  # NaN: nothing drawn
