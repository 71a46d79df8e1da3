"""The synthesis candidates of a large tree in rank order, without holding every term.

Why (issue 24: a dream's peak <= 300 MB at 100,000 entries): every entry's text, and a
:class:`evidence.Term` (its entries, domains, spellings) for each of the ~45,000 terms that
several domains share, took ~250 MB, while a dream writes at most three syntheses from the
best few. Here one pass over the index, a batch of entries at a time, keeps numbers only:
each entry's term hashes, its domain and title hash, and how many entries use each word.
From them the rules of :func:`evidence.shared` that need no spelling (entries, domains,
titles, a quarter of the tree, words everywhere) leave the terms that may pass, and their
rank without the label: kind times domains, then entries. Terms are then built and ranked
exactly, a round of the best :data:`ROUND` (and all that tie with the last) at a time, from
the few entries that hold them, read again by id. The order and the terms are the ones
``evidence.gather`` then ``shared`` gave; a 64-bit hash collision (odds ~1e-8 here) can
only merge two terms' counts, and a term whose own rank falls behind its round waits for
the next.
"""

from __future__ import annotations

import sqlite3
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from brv_vc.index import texts
from brv_vc.services.dream import evidence
from brv_vc.services.dream.evidence import EntryText, Term
from brv_vc.tree.layout import ARCHIVE_DIR

ROUND = 64
KIND = {"tag": 0, "phrase": 1, "word": 2}
_WEIGHT = np.array([evidence.KIND_WEIGHT[k] for k in KIND])


@dataclass
class Census:
    """What one pass over the entries keeps: numbers, no text (see the module docstring)."""

    ids: list[int]  # index rowids of the entries, in the index's order
    domains: list[str]
    spread: dict[str, int] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)  # of the entries read for a round
    openings: dict[str, str] = field(default_factory=dict)
    occ_hash: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    occ_entry: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    @property
    def small(self) -> bool:
        """A tree under ``evidence.SMALL_TREE`` entries (single words count there)."""
        return len(self.ids) < evidence.SMALL_TREE


def _rows(conn: sqlite3.Connection, skip_domain: str) -> list[tuple[int, str]]:
    """(rowid, domain) of every parsed entry with indexed text, outside the skipped."""
    with_text = {i for (i,) in conn.execute("SELECT id FROM texts")}
    out = []
    for i, p in conn.execute(
            "SELECT id, path FROM docs WHERE kind = 'entry' AND problem IS NULL"):
        domain = p.split("/", 1)[0]
        if domain not in (skip_domain, ARCHIVE_DIR) and i in with_text:
            out.append((i, domain))
    return out


def _read(conn: sqlite3.Connection, ids: list[int]) -> Iterator[EntryText]:
    """The entries of ``ids``, in that order, a batch at a time (their text cut at once)."""
    for first in range(0, len(ids), evidence.TEXT_BATCH):
        batch = ids[first:first + evidence.TEXT_BATCH]
        marks = ",".join(str(int(i)) for i in batch)
        named = {i: (p, t) for i, p, t in conn.execute(
            f"SELECT id, path, title FROM docs WHERE id IN ({marks})")}
        stored = texts.load(conn, batch)
        for i in batch:
            if i in stored and i in named:
                p, t = named[i]
                yield EntryText(p, t or "", stored[i][1],
                                evidence.opening(stored[i][0][:evidence.HEAD_CHARS]))


def census(conn: sqlite3.Connection, skip_domain: str,
           should_stop: Callable[[], bool] = lambda: False) -> tuple[Census, np.ndarray] | None:
    """One pass: the Census and the ranked hashes that may pass (None when stopped)."""
    rows = _rows(conn, skip_domain)
    names = sorted({d for _, d in rows})
    found = Census([i for i, _ in rows], names)
    where = {d: n for n, d in enumerate(names)}
    del rows
    small, spread = found.small, found.spread
    vocab: dict[str, int] = {}
    # compact arrays: ~2,000,000 term occurrences at 100,000 entries (a list of Python
    # ints would cost ~5x); a term's first two words tell whether one is everywhere (a
    # longer tag is never ruled out here, only by ``evidence.shared`` once built)
    hashes, owner, kinds = array("q"), array("i"), array("b")
    first_word, second_word = array("i"), array("i")
    doms, titled = array("i"), array("q")  # per entry
    for n, entry in enumerate(_read(conn, found.ids)):
        if n % evidence.TEXT_BATCH == 0 and should_stop():
            return None
        words = evidence._words(evidence._lead(entry))
        for word in {evidence._stem(w) for w, _ in words}:
            spread[word] = spread.get(word, 0) + 1
        mine: dict[int, tuple[int, str]] = {}
        for kind, key, _ in evidence._terms(entry, words, small):
            mine.setdefault(hash(f"{kind}:{key}"), (KIND[kind], key))
        doms.append(where[entry.path.split("/", 1)[0]])
        titled.append(hash(entry.title.lower()))
        for term_hash, (kind_code, key) in mine.items():
            parts = key.split()
            ids = [vocab.setdefault(w, len(vocab)) for w in parts[:2]] if len(parts) <= 2 else []
            first_word.append(ids[0] if ids else -1)
            second_word.append(ids[-1] if ids else -1)
            hashes.append(term_hash)
            owner.append(n)
            kinds.append(kind_code)
    common = np.zeros(len(vocab) + 1, bool)  # the last: "not known" (-1)
    if not small:
        for word, number in vocab.items():
            common[number] = spread.get(word, 0) > len(found.ids) / 4
    del vocab
    h = np.frombuffer(hashes, np.int64)
    uniq, inverse, count = np.unique(h, return_inverse=True, return_counts=True)
    keep = count >= (2 if small else 3)
    if not small:
        keep &= count <= len(found.ids) / 4
    held = keep[inverse]  # the occurrences of terms that may pass: the rest go now
    del uniq, inverse, count, keep
    found.occ_hash = h[held]
    del h, hashes
    found.occ_entry = np.frombuffer(owner, np.int32)[held].astype(np.int64)
    del owner
    has_common = (common[np.frombuffer(first_word, np.int32)[held]]
                  | common[np.frombuffer(second_word, np.int32)[held]])
    del first_word, second_word
    per_entry = found.occ_entry
    return found, _ranked(found, np.frombuffer(kinds, np.int8)[held].astype(np.int64),
                          np.frombuffer(doms, np.int32)[per_entry],
                          np.frombuffer(titled, np.int64)[per_entry], has_common, len(names))


def _distinct(h: np.ndarray, other: np.ndarray, uniq: np.ndarray,
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per hash of ``uniq``: distinct ``other`` values, and the pairs (hash index, count)."""
    order = np.lexsort((other, h))
    hs, os_ = h[order], other[order]
    del order
    new = np.ones(len(hs), bool)
    new[1:] = (hs[1:] != hs[:-1]) | (os_[1:] != os_[:-1])
    starts = np.flatnonzero(new)
    pair_hash = np.searchsorted(uniq, hs[starts])
    pair_count = np.diff(np.append(starts, len(hs)))
    return np.bincount(pair_hash, minlength=len(uniq)), pair_hash, pair_count


def _ranked(found: Census, kinds: np.ndarray, doms: np.ndarray, titled: np.ndarray,
            has_common: np.ndarray, domains: int) -> np.ndarray:
    """The hashes that may pass ``evidence.shared``, by rank (without the label).

    Returns an array of rows (hash, kind weight times domains, entries capped at 12).
    """
    h = found.occ_hash
    if not len(h):
        return np.zeros((0, 3), np.int64)
    uniq, first, count = np.unique(h, return_index=True, return_counts=True)
    reach, pair_hash, pair_count = _distinct(h, doms, uniq)
    kind = kinds[first]
    keep = reach >= 2
    if not found.small:
        common = np.zeros(len(uniq), bool)
        np.logical_or.at(common, np.searchsorted(uniq, h), has_common)
        least = np.full(len(uniq), np.iinfo(np.int64).max)
        np.minimum.at(least, pair_hash, pair_count)
        titles, _, _ = _distinct(h, titled, uniq)
        keep &= ~common & (titles >= 3) & (kind != KIND["word"])
        keep &= ~((reach == 2) & (least < 2))
    if domains >= 6:
        keep &= reach <= domains / 2
    weight = (_WEIGHT[kind] * reach).astype(np.int64)
    rows = np.stack([uniq, weight, np.minimum(count, 12)], axis=1)[keep]
    return rows[np.lexsort((-rows[:, 2], -rows[:, 1]))]


def ranked_terms(conn: sqlite3.Connection, found: Census, rows: np.ndarray,
                 ) -> Iterator[Term]:
    """The terms ``evidence.shared`` keeps, best first, built a round at a time."""
    common = set() if found.small else {
        w for w, n in found.spread.items() if n > len(found.ids) / 4}
    waiting: list[Term] = []  # built, but ranked behind their round (a hash collision)
    start = 0
    while start < len(rows):
        end = min(start + ROUND, len(rows))
        last = (rows[end - 1, 1], rows[end - 1, 2])
        while end < len(rows) and (rows[end, 1], rows[end, 2]) == last:
            end += 1
        terms = _build(conn, found, set(rows[start:end, 0].tolist()), common)
        ready = sorted([*waiting, *evidence.shared(terms, found.spread, len(found.ids),
                                                   found.domains)], key=_key)
        behind = (-float(last[0]), -int(last[1]))
        waiting = [t for t in ready if _key(t)[:2] > behind]
        yield from (t for t in ready if _key(t)[:2] <= behind)
        start = end
    yield from sorted(waiting, key=_key)


def _key(term: Term) -> tuple[float, int, str]:
    return (-evidence.KIND_WEIGHT[term.kind] * len(term.entries),
            -min(sum(len(p) for p in term.entries.values()), 12), term.label)


def _build(conn: sqlite3.Connection, found: Census, wanted: set[int],
           common: set[str]) -> dict[str, Term]:
    """The terms of ``wanted`` hashes, as ``evidence.gather`` builds them."""
    holders = np.unique(found.occ_entry[np.isin(found.occ_hash, list(wanted))])
    terms: dict[str, Term] = {}
    for entry in _read(conn, [found.ids[n] for n in holders.tolist()]):
        domain = entry.path.split("/", 1)[0]
        title = entry.title.lower()
        found.titles[entry.path] = entry.title
        found.openings[entry.path] = evidence.opening(entry.head)
        words = evidence._words(evidence._lead(entry))
        for kind, key, surface in evidence._terms(entry, words, found.small):
            if hash(f"{kind}:{key}") not in wanted or not common.isdisjoint(key.split()):
                continue
            term = terms.setdefault(f"{kind}:{key}", Term(kind, key))
            if len(term.titles) < 3:
                term.titles.add(title)
            term.shown[surface] = term.shown.get(surface, 0) + 1
            term.entries.setdefault(domain, {})[entry.path] = None
    return terms
