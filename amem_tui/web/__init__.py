"""The inspector in a browser: a front end beside the TUI and the CLI.

``server`` starts textual-serve, which runs one ``amem-tui`` per browser session (this
process never opens the store); ``access`` keeps out whoever lacks the token when it
listens beyond this machine (the token and the address that carries it: ``token``).
The CLI's ``serve`` reads the options and calls ``server``.
"""
