"""Screens: they own the workers that call the engine."""
