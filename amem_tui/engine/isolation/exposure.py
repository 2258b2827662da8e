"""What of A's private memory B reaches through another note: its text copied
(``content-copied``), merged or replaced into a history (``merged-history``), a
credential in a note read beyond its owner (``secret``), and links that name it
(``link-to-private``).

A private note of A is one the rules put in A's own view (its private scope, its Mode B
collection, its mem0 namespace), soft-deleted or not; B reaches a note when its searches
find it or the read rule lets it read it by id. Only active notes are looked at as what B
reaches. The notes B wrote itself are not (B knows its own text); a mem0 memory is
reached by its namespace whoever wrote it.
"""

from __future__ import annotations

from amem_tui.engine.isolation.collect import Collector, Gathered
from amem_tui.engine.isolation.copies import TextMatch
from amem_tui.engine.isolation.findings import Certainty, Coverage
from amem_tui.engine.isolation.reach import Reach
from amem_tui.engine.isolation.secrets import secret_kinds
from amem_tui.engine.isolation.survey import Survey
from amem_tui.engine.models import SHARED

_PATH_WORDS = {
    "search": "finds by search",
    "get": "reads by id (its readers name it; its searches never find it)",
    "collection": "reads with its whole Mode B collection",
    "link": "sees only as a linked id",
    "none": "does not reach",
}


def describe(survey: Survey, note: int) -> str:
    """What a note is, in a few words (once per access group)."""
    key = (survey.where[note], survey.codes[note])
    found = survey.words.get(key)
    if found is None:
        found = survey.words[key] = _describe(survey.reach(note))
    return found


def _describe(reach: Reach) -> str:
    """What a note is, in a few words: whose, and how it is shared."""
    note = reach.note
    if note.user_id is not None:
        return f"a mem0 memory of namespace '{note.user_id}'"
    writer = reach.writer or "nobody"
    if note.agent_id == SHARED:
        return f"a shared note written by {writer}"
    if reach.whole:
        return f"a note of {writer}'s in {'/'.join(sorted(reach.whole))}'s Mode B collection"
    return f"a private note of {note.agent_id}'s whose readers name {', '.join(reach.gets)}"


def _copied_why(found: Gathered) -> str:
    count = len(found.others)
    whose = f"{found.from_agent}'s private note" + ("s" if count > 1 else "")
    return (
        f"{whose} {found.evidence} in {found.detail['target']}, which {found.to_agent} "
        f"{_PATH_WORDS[found.path]}"
    )


def _merged_why(found: Gathered) -> str:
    return (
        f"the evolution history of {found.detail['target']}, which {found.to_agent} "
        f"{_PATH_WORDS[found.path]}, {found.evidence} {found.from_agent}'s private note"
    )


def _secret_why(found: Gathered) -> str:
    return (
        f"{found.to_agent} {_PATH_WORDS[found.path]} {found.detail['target']}, which holds a "
        f"credential ({found.secret_type}, found by detect-secrets; its value is not shown)"
    )


def _link_why(found: Gathered) -> str:
    return (
        f"{found.detail['target']}, which {found.to_agent} {_PATH_WORDS[found.path]}, links "
        f"to {found.from_agent}'s private note: only its id leaks (openclaw-amem's link "
        f"walk stays inside {found.to_agent}'s own listing, and its read rule refuses the "
        "note by id)"
    )


def _evidence(match: TextMatch) -> tuple[str, Certainty]:
    if match.where == "history":
        if match.how == "exact":
            return "holds, word for word, text replaced from", "certain"
        return f"holds a run of {match.run} words replaced from", "likely"
    if match.how == "exact":
        return "is repeated word for word", "certain"
    return f"is repeated in a run of {match.run} words", "likely"


def text_copies(survey: Survey, out: Collector, skip: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """``content-copied`` and ``merged-history`` from text found in another note (its
    content, or a text its history replaced), but for the (private, note) pairs in
    ``skip`` (a merge explains them already); returns the pairs found."""
    seen: set[tuple[int, int]] = set()
    for private in survey.sources:
        for match in survey.index.matches(private, survey.texts[private]):
            if match.target == private or (private, match.target) in skip:
                continue
            evidence, sure = _evidence(match)
            added = _record(survey, out, private, match.target, match.where, evidence, sure)
            if added:
                seen.add((private, match.target))
    return seen


def _record(
    survey: Survey,
    out: Collector,
    private: int,
    note: int,
    where: str,
    evidence: str,
    sure: Certainty,
) -> bool:
    mine, theirs = survey.reach(private), survey.reach(note)
    if theirs.writer is None:  # who wrote a mem0 memory is unknown: the older is the source
        copied, original = survey.created.get(note), survey.created.get(private)
        if copied is not None and original is not None and copied < original:
            return False
    added = False
    for to in survey.receivers(private, note):
        out.add(
            "merged-history" if where == "history" else "content-copied",
            mine.holder,
            to,
            first=survey.ids[note],
            others=[survey.ids[private]],
            collection=survey.collections[survey.where[note]].name,
            path=theirs.path(to),
            certainty=sure,
            why=_merged_why if where == "history" else _copied_why,
            evidence=evidence,
            target=describe(survey, note),
        )
        added = True
    return added


#: Pairs of a cosine comparison: (private note, note read beyond its writer, cosine).
NearPairs = list[tuple[int, int, float]]


def near_pairs(survey: Survey) -> tuple[NearPairs, list[Coverage]]:
    """Every (private, readable) pair whose stored vectors have a cosine of 0.95 or more
    and that could expose the private note to someone, and what each vector space
    compared. Only products and a few store reads: safe beside the text comparisons."""

    def worth(private: int, note: int) -> bool:
        return bool(survey.receivers(private, note))

    pairs: NearPairs = []
    coverage = []
    for space in survey.spaces.values():
        found, covered = space.near_pairs(survey.fetch_vectors, worth, set())
        pairs += found
        coverage.append(covered)
    return pairs, coverage


def vector_copies(
    survey: Survey, out: Collector, pairs: NearPairs, skip: set[tuple[int, int]]
) -> None:
    """``content-copied`` from stored vectors, for the pairs the text left unfound."""
    for private, note, cosine in pairs:
        if (private, note) in skip:
            continue
        evidence = f"is repeated near-verbatim (cosine {cosine:.3f} of the stored vectors)"
        _record(survey, out, private, note, "content", evidence, "likely")


def merges(survey: Survey, out: Collector) -> set[tuple[int, int]]:
    """``merged-history``: a history entry names a private note of A as what was merged
    into the note (openclaw-amem's ``consolidate``, triggered by the dropped note);
    returns the (private, note) pairs found."""
    found: set[tuple[int, int]] = set()
    for note, entries in survey.history.items():
        collection = survey.where[note]
        for entry in entries:
            if entry.action != "consolidate" or not entry.triggeredBy:
                continue
            private = survey.find(collection, entry.triggeredBy)
            if private is None or survey.reach(private).holder is None:
                continue
            if _record(
                survey, out, private, note, "history", "records a merge (consolidate) of", "certain"
            ):
                found.add((private, note))
    return found


def secrets(survey: Survey, out: Collector) -> int:
    """``secret``: a credential in a note read beyond its owner; returns notes scanned."""
    memo: dict[str, list[str]] = {}
    scanned = 0
    for note in survey.targets:
        reach = survey.reach(note)
        beyond = sorted(reach.exposed_to() - {reach.holder})
        if not beyond:
            continue
        scanned += 1
        texts = [survey.texts[note]] + [
            e.oldContent for e in survey.history.get(note, []) if e.oldContent
        ]
        kinds: list[str] = []
        for text in texts:
            if text not in memo:
                memo[text] = secret_kinds([text])
            kinds += [k for k in memo[text] if k not in kinds]
        if not kinds:
            continue
        owner = reach.writer or reach.holder
        for to in beyond:
            out.add(
                "secret",
                owner,
                to,
                first=survey.ids[note],
                collection=survey.collections[survey.where[note]].name,
                path=reach.path(to),
                certainty="likely",
                why=_secret_why,
                secret_type=", ".join(sorted(kinds)),
                target=describe(survey, note),
            )
    return scanned


def links(survey: Survey, out: Collector) -> None:
    """``link-to-private``: a note B reaches links to a note private to A."""
    for note, linked in survey.links.items():
        reach = survey.reach(note)
        if not reach.note.active or not reach.readers:
            continue
        collection = survey.where[note]
        for link in dict.fromkeys(linked):
            private = survey.find(collection, link)
            if private is None or private == note:
                continue
            mine = survey.reach(private)
            if mine.holder is None:
                continue
            for to in sorted(reach.readers - mine.readers - {mine.holder}):
                out.add(
                    "link-to-private",
                    mine.holder,
                    to,
                    first=survey.ids[note],
                    others=[survey.ids[private]],
                    collection=survey.collections[collection].name,
                    path=reach.path(to),
                    certainty="certain",
                    why=_link_why,
                    target=_own_words(reach),
                )


def _own_words(reach: Reach) -> str:
    note = reach.note
    if note.agent_id == SHARED:
        return _describe(reach)
    return f"{note.agent_id}'s note" if note.agent_id else "a note"
