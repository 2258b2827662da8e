"""What the leak audit reports: one finding per path by which one agent reaches what
another keeps private (or per setting that breaks isolation), its severity and how sure
the audit is, and what it compared and what it only sampled.

Each kind has one severity, so a CI gate (``--fail-on``) means the same on every store:

====================  ========  =====================================================
kind                  severity  what it says
====================  ========  =====================================================
``content-copied``    leak      A's private text sits in a note B can read
``merged-history``    leak      the evolution history of a note B can read holds text
                                merged or replaced from a note private to A
``secret``            leak      a note read beyond its owner holds a credential
``misplaced``         leak      a Mode B collection holds another agent's notes
``grant-unusable``    warning   ``readers``/``writers`` name an agent that is unknown,
                                misspelt or Mode B: the grant does not do what it says
``unknown-agent``     warning   notes whose ``agent_id`` or ``owner`` is no configured
                                agent: whoever runs under that name reads them
``link-to-private``   info      a note B can read links to A's private note: only the
                                id leaks (openclaw-amem's link walk never reaches it)
``orphan-namespace``  info      mem0 memories no identity of the plugin reads
====================  ========  =====================================================
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import BaseModel, Field

LeakKind = Literal[
    "content-copied",
    "merged-history",
    "secret",
    "link-to-private",
    "grant-unusable",
    "unknown-agent",
    "misplaced",
    "orphan-namespace",
]
LEAK_KINDS: tuple[LeakKind, ...] = (
    "content-copied",
    "merged-history",
    "secret",
    "misplaced",
    "grant-unusable",
    "unknown-agent",
    "link-to-private",
    "orphan-namespace",
)

Severity = Literal["leak", "warning", "info"]
#: From the most to the least severe.
SEVERITIES: tuple[Severity, ...] = ("leak", "warning", "info")
_RANK: dict[Severity, int] = {"info": 0, "warning": 1, "leak": 2}

#: The severity of each kind (see the module's table).
SEVERITY_OF: dict[LeakKind, Severity] = {
    "content-copied": "leak",
    "merged-history": "leak",
    "secret": "leak",
    "misplaced": "leak",
    "grant-unusable": "warning",
    "unknown-agent": "warning",
    "link-to-private": "info",
    "orphan-namespace": "info",
}

#: How sure a finding is: ``certain`` (the rules or identical text say so), ``likely``
#: (near-verbatim text, a detector's match), ``possible`` (the store cannot tell).
Certainty = Literal["certain", "likely", "possible"]

#: How ``to_agent`` reaches the note it names first: its ``search`` (memory_search,
#: listings and counts), ``get`` (read by id only: openclaw-amem's getNote), ``link``
#: (only the id, through another note's links), ``collection`` (a Mode B agent reads
#: its whole collection), or ``none`` (nobody: a setting, not a path).
LeakPath = Literal["search", "get", "link", "collection", "none"]


def at_least(severity: Severity, floor: Severity) -> bool:
    """True when ``severity`` is ``floor`` or more severe."""
    return _RANK[severity] >= _RANK[floor]


class LeakFinding(BaseModel):
    """One path by which ``to_agent`` reaches what ``from_agent`` keeps private, or one
    setting that breaks isolation (then ``to_agent`` may be None).

    ``notes`` names the note ``to_agent`` can read first (the one to look at as that
    agent), then the private notes it exposes. Agents are agent ids; in a mem0
    collection, namespaces (``user_id`` values such as ``alice:agent:dev``).
    A ``secret`` finding names the kind of credential, never its value.
    """

    kind: LeakKind
    severity: Severity
    from_agent: str | None
    to_agent: str | None
    notes: list[str]
    why: str
    certainty: Certainty = "certain"
    path: LeakPath = "none"
    collection: str | None = None
    #: For ``secret``: what the detector found (e.g. ``AWS Access Key``).
    secret_type: str | None = None


class Coverage(BaseModel):
    """How much of one comparison the audit made: all of it, or a sample it names."""

    check: str
    compared: int
    total: int
    how: str

    @property
    def complete(self) -> bool:
        """True when nothing was left out."""
        return self.compared >= self.total


class LeakReport(BaseModel):
    """Everything ``leaks`` reports: the findings, what was checked, and what was only
    sampled (``sampled`` is empty when every comparison was made in full)."""

    findings: list[LeakFinding] = Field(default_factory=list)
    pairs_checked: int = 0
    notes_checked: int = 0
    #: Every identity paired: agent ids, and mem0 namespaces.
    agents: list[str] = Field(default_factory=list)
    collections: list[str] = Field(default_factory=list)
    coverage: list[Coverage] = Field(default_factory=list)

    @property
    def sampled(self) -> list[Coverage]:
        """The comparisons made on a sample only (the store was too big for the budget)."""
        return [c for c in self.coverage if not c.complete]

    def counts(self) -> dict[str, int]:
        """How many findings of each severity."""
        found = Counter(f.severity for f in self.findings)
        return {severity: found.get(severity, 0) for severity in SEVERITIES}

    def failing(self, fail_on: Severity = "leak") -> list[LeakFinding]:
        """The findings at or above ``fail_on``."""
        return [f for f in self.findings if at_least(f.severity, fail_on)]

    def exit_code(self, fail_on: Severity = "leak") -> int:
        """1 when a finding is at or above ``fail_on``, else 0 (what ``leaks`` exits with)."""
        return 1 if self.failing(fail_on) else 0

    def by_pair(self) -> dict[tuple[str | None, str | None], list[LeakFinding]]:
        """The findings grouped by (from, to), most severe first within each pair."""
        out: dict[tuple[str | None, str | None], list[LeakFinding]] = {}
        for finding in sorted(self.findings, key=lambda f: -_RANK[f.severity]):
            out.setdefault((finding.from_agent, finding.to_agent), []).append(finding)
        return out
