"""The synthesis detector builds only the best few terms and reads entries a batch at a time.

Issue 24: at 100,000 entries every entry's text and a Term for each of ~45,000 shared terms
took a dream to ~300 MB. On a generated tree the candidates still come out exactly as
``evidence.gather`` then ``shared`` gave them (kind, spelling, titles, entries in order),
while the detector holds a batch of entries and a round of terms at a time.
"""

from __future__ import annotations

import itertools
import weakref
from datetime import UTC, datetime

import pytest

from bench.gen_tree import generate
from brv_vc.services.derived import index_project, open_synced
from brv_vc.services.dream import evidence, patterns, synthesize
from brv_vc.tree.project import Project

ENTRIES = 600


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("synth") / "proj"
    generate(root, ENTRIES, seed=5)
    project = Project(root)
    index_project(project, rebuild=False, now=datetime.now(UTC))
    return project


def _shape(term: evidence.Term) -> tuple[object, ...]:
    return (term.kind, term.key, term.label, sorted(term.titles), term.shown,
            [(d, list(p)) for d, p in term.entries.items()])


def test_candidates_in_rounds_are_the_whole_gather_in_order(tree: Project, monkeypatch) -> None:
    monkeypatch.setattr(patterns, "ROUND", 3)  # many rounds, ties spanning their edges
    opened = open_synced(tree)
    try:
        entries = evidence.entry_texts(opened.conn, synthesize.DOMAIN)
        found, spread = evidence.gather(entries)
        names = sorted({e.path.split("/", 1)[0] for e in entries})
        whole = evidence.shared(found, spread, len(entries), names)
        counted = patterns.census(opened.conn, synthesize.DOMAIN)
        assert counted is not None
        census, rows = counted
        rounds = list(patterns.ranked_terms(opened.conn, census, rows))
    finally:
        opened.close()
    assert len(whole) > 30  # the generated tree shares enough terms to rank
    assert [_shape(t) for t in rounds] == [_shape(t) for t in whole]
    titles = {e.path: e.title for e in entries}
    assert all(census.titles[p] == titles[p] for t in rounds for p in t.paths)


def test_detect_holds_a_round_of_terms_and_a_batch_of_entries(tree: Project,
                                                               monkeypatch) -> None:
    built: list[object] = []
    alive: set[int] = set()
    most = [0]

    class CountedTerm(evidence.Term):
        def __init__(self, *args: object, **named: object) -> None:
            super().__init__(*args, **named)  # type: ignore[arg-type]
            built.append(self.key)

    class CountedText(evidence.EntryText):
        def __init__(self, *args: object, **named: object) -> None:
            super().__init__(*args, **named)  # type: ignore[arg-type]
            alive.add(id(self))
            most[0] = max(most[0], len(alive))
            weakref.finalize(self, alive.discard, id(self))

    for module in (evidence, patterns):
        monkeypatch.setattr(module, "Term", CountedTerm, raising=False)
        monkeypatch.setattr(module, "EntryText", CountedText, raising=False)
    monkeypatch.setattr(evidence, "TEXT_BATCH", 50)
    monkeypatch.setattr(patterns, "ROUND", 4)
    opened = open_synced(tree)
    try:
        counted = patterns.census(opened.conn, synthesize.DOMAIN)
        assert counted is not None
        shared = len(counted[1])
        first = list(itertools.islice(patterns.ranked_terms(opened.conn, *counted), 1))
        assert first
        built.clear()
        most[0] = 0
        ops = synthesize.detect(tree, opened.conn)
    finally:
        opened.close()
    assert ops  # the tree has patterns to write
    # the old gather built a Term for every term held by three entries (more than these);
    # the rounds build the best (ties included: 41 terms share the top rank here)
    assert len(set(built)) <= shared // 2, (len(set(built)), shared)
    assert most[0] <= 2 * 50, most[0]  # a batch of entries, never the whole tree


def test_a_detector_out_of_time_writes_nothing(tree: Project) -> None:
    assert synthesize.detect(tree, should_stop=lambda: True) == []
