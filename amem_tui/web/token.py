"""The token a browser brings to a served inspector open beyond this machine.

Kept apart from ``access`` (which needs the ``serve`` extra) so that making a token and
the address that carries it import nothing optional.
"""

from __future__ import annotations

import secrets

#: The query parameter a browser brings the token in.
TOKEN_PARAMETER = "token"


def new_token() -> str:
    """A fresh random token (about 256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def address_to_open(public: str, token: str | None) -> str:
    """The address a browser opens first: with the token, when one is required."""
    return f"{public}/?{TOKEN_PARAMETER}={token}" if token else public
