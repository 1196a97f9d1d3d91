"""View state without Qt: selection, histograms, charts, the layout diff, preferences, safe page HTML."""
