"""Modal dialogs: they ask the user and return an answer; they never touch the store."""
