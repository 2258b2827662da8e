"""The Textual inspector: agent panes, live search, actions and consolidation."""
