"""Helpers shared by the test suite: engines, stores written by other tools, faults,
hostile input, consolidation data, the CLI in a subprocess and the TUI under Pilot.

Test modules import from here, never from ``conftest.py`` or from another test module.
"""
