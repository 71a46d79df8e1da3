"""The Adaptive Knowledge Lifecycle: importance, recency, maturity (seeds 000 and 002)."""
