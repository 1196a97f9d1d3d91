"""Reports: the report model, the HTML report, diff excerpts, writing files."""
