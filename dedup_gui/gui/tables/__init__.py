"""The pairs, pages and clusters tables (Qt models over core view state)."""
