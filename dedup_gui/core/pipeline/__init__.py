"""The scan, stage by stage: walk, load and decode, per-page features, template learning, candidates, measures, classification, clusters, keep clusters, the feature cache, executors."""
