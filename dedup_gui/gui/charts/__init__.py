"""matplotlib charts on Qt canvases: the histogram and the content/layout map."""
