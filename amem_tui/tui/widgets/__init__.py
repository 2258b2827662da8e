"""Widgets: they show data they are given and never touch the store."""
