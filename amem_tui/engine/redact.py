"""Secrets in server URLs: never shown, and handed to the client the way it needs them.

A Qdrant URL may carry credentials: user info (``http://user:password@host``) and
key-like query parameters (``?api_key=…``). ``redact_url`` is what every surface
shows instead of a URL (headers, ``status``, errors, the served page), and
``redact_text`` is the last guard on any message that may quote one (a client
library's own error text). ``split_credentials`` takes the credentials out of a
URL, for a client that ignores them in the URL itself (qdrant-client drops both).
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, field

#: What a secret is shown as.
MASK = "***"

#: Query parameter names that hold a secret: any name containing one of these words
#: (``api_key``, ``apikey``, ``x-api-key``, ``access_token``, ``password``, …), or
#: ``sig``. Redacting a harmless parameter costs nothing; showing a key cannot be undone.
_SECRET_WORDS = ("key", "token", "secret", "passw", "pwd", "auth", "credential", "signature")

#: The query parameters qdrant-client's ``api_key`` comes from when a URL carries it.
API_KEY_PARAMETERS = ("api_key", "apikey", "api-key")

#: ``scheme://userinfo@`` in free text (userinfo up to the first ``@`` before the host).
_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<info>[^/?#@\s]*)@")
#: ``name=value`` after ``?``, ``&`` or ``;`` in free text.
_PARAMETER = re.compile(r"(?P<lead>[?&;](?P<name>[^=&;#\s?]+)=)(?P<value>[^&;#\s]*)")


def is_secret_name(name: str) -> bool:
    """True for a query parameter name that holds a secret (``api_key``, ``token``, …)."""
    plain = urllib.parse.unquote_plus(name).lower()
    return plain == "sig" or any(word in plain for word in _SECRET_WORDS)


def _masked_query(query: str) -> str:
    parts = []
    for part in re.split(r"([&;])", query):
        name, eq, value = part.partition("=")
        parts.append(f"{name}={MASK}" if eq and value and is_secret_name(name) else part)
    return "".join(parts)


def redact_url(url: str) -> str:
    """``url`` with its user info and every key-like query value replaced by ``***``:
    ``http://user:pw@host:6333/?api_key=k&x=1`` -> ``http://***@host:6333/?api_key=***&x=1``.

    The rest is kept as given (host, port, path, harmless parameters). A URL that does
    not parse is redacted as text (``redact_text``), so nothing shows either way.
    """
    text = url.strip()
    has_scheme = "://" in text
    try:
        parts = urllib.parse.urlsplit(text if has_scheme else f"//{text}")
    except ValueError:
        return redact_text(text)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rpartition('@')[2]}"
    query = _masked_query(parts.query)
    fragment = _masked_query(parts.fragment) if "=" in parts.fragment else parts.fragment
    shown = urllib.parse.urlunsplit(("", netloc, parts.path, query, fragment))
    return f"{parts.scheme}:{shown}" if has_scheme else shown.removeprefix("//")


def redact_text(text: str) -> str:
    """Any text with the secrets of the URLs it quotes masked: user info after
    ``scheme://`` and key-like ``name=value`` parameters (for messages that come from
    elsewhere, a client library's exception, which may quote the URL it was given)."""
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{MASK}@", text)
    return _PARAMETER.sub(
        lambda m: f"{m['lead']}{MASK}" if m["value"] and is_secret_name(m["name"]) else m[0],
        text,
    )


@dataclass(frozen=True)
class ServerCredentials:
    """A server URL without its credentials, and the credentials it carried."""

    #: The URL with no user info and no query (what the client connects to).
    url: str
    #: ``user`` and ``password`` of the user info, decoded (None: the URL had none).
    username: str | None = field(default=None, repr=False)
    password: str | None = field(default=None, repr=False)
    #: The value of an ``api_key`` (``apikey``, ``api-key``) query parameter.
    api_key: str | None = field(default=None, repr=False)


def split_credentials(url: str) -> ServerCredentials:
    """The credentials ``url`` carries, and the URL without them.

    qdrant-client keeps only the scheme, host, port and path of a URL: user info and
    query parameters would be dropped without a word, so a server that needs them
    would refuse every request. The caller sends them itself (the api key as Qdrant's
    ``api-key`` header, user info as HTTP Basic authentication).
    """
    text = url.strip()
    has_scheme = "://" in text
    try:
        parts = urllib.parse.urlsplit(text if has_scheme else f"//{text}")
    except ValueError:
        return ServerCredentials(url=text)  # the settings refuse such a URL first
    username = password = None
    netloc = parts.netloc
    if "@" in netloc:
        info, _, netloc = netloc.rpartition("@")
        user, colon, secret = info.partition(":")
        username = urllib.parse.unquote(user)
        password = urllib.parse.unquote(secret) if colon else None
    api_key = None
    for name, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=False):
        if name.lower() in API_KEY_PARAMETERS:
            api_key = value
    clean = urllib.parse.urlunsplit(("", netloc, parts.path, "", ""))
    clean = f"{parts.scheme}:{clean}" if has_scheme else clean.removeprefix("//")
    return ServerCredentials(url=clean, username=username, password=password, api_key=api_key)
