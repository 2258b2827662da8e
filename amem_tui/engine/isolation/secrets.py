"""Credentials in a note's text, found by a maintained detector: detect-secrets' plugins.

Only the plugins that recognise a credential by its shape are used (cloud and service
keys and tokens, private keys, credentials in URLs, JSON web tokens), and its keyword
plugin for ``password: value`` and ``api_key = "value"`` in the settings-file style
notes are written in. Its entropy plugins are not: in prose every long word is
"high entropy", and a memory store is prose. Nothing is sent anywhere (the plugins'
verification, which calls the services, is never asked for), and nothing returned
carries the value: a caller learns only the kind of each credential.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Sequence
from typing import Any

from amem_tui.engine.isolation.literals import Gate, Gates, gate

#: Plugins left out (see the module's docstring).
LEFT_OUT = frozenset(
    {"Base64 High Entropy String", "Hex High Entropy String", "Public IP (ipv4)", "Secret Keyword"}
)
#: What the keyword plugin's finds are called.
KEYWORD = "Secret Keyword"

_lock = threading.Lock()


@functools.cache
def _regex_only() -> frozenset[object]:
    """The ``analyze_string`` methods known to find only matches of the plugin's own
    patterns: the regex plugins' own, and the JSON web token plugin's (which checks
    each match further)."""
    from detect_secrets.plugins.base import RegexBasedDetector
    from detect_secrets.plugins.jwt import JwtTokenDetector

    return frozenset({RegexBasedDetector.analyze_string, JwtTokenDetector.analyze_string})


@functools.cache
def _keywords() -> tuple[str, ...] | re.Pattern[str]:
    """What a line must hold for the keyword plugin to find anything: one word of its own
    denylist (``password``, ``api_?key``, ...), which every one of its patterns starts
    with. As the words themselves where each is plain text but for ``_?`` (its longest
    piece must be there), else as the plugin's own pattern."""
    from detect_secrets.plugins.keyword import DENYLIST, DENYLIST_REGEX

    pieces = [max(word.split("_?"), key=len) for word in DENYLIST]
    if all(re.escape(piece) == piece and piece for piece in pieces):
        return tuple(sorted(set(pieces)))
    return re.compile(DENYLIST_REGEX, re.IGNORECASE)


def _may_hold_keyword(line: str) -> bool:
    words = _keywords()
    if isinstance(words, re.Pattern):
        return words.search(line) is not None
    folded = line.casefold()
    return any(word in folded for word in words)


@functools.cache
def _plugins() -> tuple[list[tuple[Any, Gates]], Any, Gates]:
    # detect-secrets keeps its settings in one global; reading its plugin table is done
    # once, under a lock, and the plugins are then used directly (no settings involved).
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.keyword import CONFIG_DENYLIST_REGEX_TO_GROUP, KeywordDetector

    with _lock:
        mapping: dict[str, Any] = get_mapping_from_secret_type_to_class()
        shaped = [cls() for kind, cls in sorted(mapping.items()) if kind not in LEFT_OUT]
    # The keyword plugin finds only what one of its patterns matches.
    keyword = Gates(tuple(gate(pattern) for pattern in CONFIG_DENYLIST_REGEX_TO_GROUP))
    return [(plugin, _gates(plugin)) for plugin in shaped], KeywordDetector(), keyword


def _gates(plugin: Any) -> Gates:
    """What a line must hold for the plugin to find anything in it. A plugin that finds
    only what its own patterns match (detect-secrets' regex plugins, and those that
    only check those matches further) is run on a line that one of its patterns could
    match; any other plugin on every line."""
    patterns = getattr(plugin, "denylist", None)
    if not patterns or type(plugin).analyze_string not in _regex_only():
        return Gates((Gate((), False),))
    return Gates(tuple(gate(p) for p in patterns))


def _placeholder(value: str, line: str) -> bool:
    """A value that names a secret rather than holds one: ``${TOKEN}``, ``<password>``,
    ``os.environ["KEY"]`` (detect-secrets' own filters say which)."""
    from detect_secrets.filters import heuristic

    return bool(
        heuristic.is_templated_secret(value)
        or heuristic.is_prefixed_with_dollar_sign(value)
        or heuristic.is_sequential_string(value)
        or heuristic.is_indirect_reference(line)
    )


def secret_kinds(texts: Sequence[str]) -> list[str]:
    """The kinds of credential found in ``texts`` (each kind once, sorted); never a value."""
    from detect_secrets.plugins.keyword import CONFIG_DENYLIST_REGEX_TO_GROUP

    shaped, keyword, keyword_gates = _plugins()
    found: set[str] = set()
    for text in texts:
        for line in text.splitlines() or [text]:
            lowered = line.lower() if line.isascii() else None
            for plugin, gates in shaped:
                if not gates.open(line, lowered):
                    continue
                if any(True for _ in plugin.analyze_string(line)):
                    found.add(str(plugin.secret_type))
            if not _may_hold_keyword(line):
                continue
            if not keyword_gates.open(line, lowered):
                continue
            values = keyword.analyze_string(
                line, denylist_regex_to_group=CONFIG_DENYLIST_REGEX_TO_GROUP
            )
            if any(not _placeholder(value, line) for value in values):
                found.add(KEYWORD)
    return sorted(found)
