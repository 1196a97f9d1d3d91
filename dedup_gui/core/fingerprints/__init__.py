"""Fingerprints: SimHash (Charikar 2002) and word shingles with MinHash (Broder 1997)."""
