"""amem_tui: see and steer what multi-agent AI systems remember."""

__version__ = "0.2.0"
