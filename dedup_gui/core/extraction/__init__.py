"""Main-content extraction: parsing, the extractors (readability-lxml, its lexbor port, Resiliparse), page clean-up, the main-content span."""
