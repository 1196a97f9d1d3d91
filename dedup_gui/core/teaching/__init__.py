"""The teaching window's computations: SimHash and Jaccard steps, charts, the gallery."""
