"""localcode: a self-correcting best-of-N coding agent for local models."""
