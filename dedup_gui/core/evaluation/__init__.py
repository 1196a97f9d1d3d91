"""Evaluation against ground truth: labelled pairs, the method comparison, main-content extraction."""
