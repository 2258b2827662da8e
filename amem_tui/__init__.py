"""amem_tui: see and steer what multi-agent AI systems remember."""

__version__ = "0.1.0"
