"""The dedup methods compared beside SimHash and shingling: one registry, and each method's module."""
