"""dedup-gui: a desktop inspector for duplicate and near-duplicate web pages."""

__version__ = "0.1.0"
