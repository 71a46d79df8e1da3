"""Issue 26, long questions out of domain: known words spread over entries in, unknown out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from retrieval_util import write_entry

from brv_vc.index import ood
from brv_vc.index.terms import query_terms
from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project

NOW = datetime(2026, 1, 20, tzinfo=UTC)
SPECIFIC = ["yank", "crate", "registry"]  # one entry holds these
ORDINARY = ["accidentally", "broken", "remove", "significantly", "release", "index",
            "mistake", "version", "published", "server", "network"]  # 3 other entries each
UNKNOWN = [f"zorb{c}quux" for c in "abcdefghijkl"]  # no entry holds these


def _tree(project: Project) -> None:
    """54 entries plus one holding three ordinary words together (over OOD_MIN_DOCS)."""
    for i, word in enumerate(ORDINARY):
        for j in range(3):
            write_entry(project, f"misc/notes/o_{i}_{j}.md", f"Other {i} {j}", f"About {word}.")
    for i in range(20):
        write_entry(project, f"misc/filler/f_{i}.md", f"Filler {i}", f"Plain filler text {i}.")
    write_entry(project, "misc/notes/mixed.md", "Mixed", " ".join(ORDINARY[:3]) + ".")
    write_entry(project, "team/cli/yank.md", "Withdrawing a release", " ".join(SPECIFIC) + ".")


def test_a_long_answerable_question_is_not_flagged(project: Project) -> None:
    """16 terms: the answer holds the 3 specific ones, 11 ordinary ones are each in 3 other
    entries, 2 are in none. The answer holds 0.27 of the whole weight (flagged until issue 26,
    on its 12 heaviest terms too); with its known words counted as 8 of 16, 0.45."""
    _tree(project)
    question = " ".join(SPECIFIC + ORDINARY + UNKNOWN[:2])
    assert len(query_terms(question)) == 16
    found = search_tree(project, question, now=NOW, record=False)
    assert found.results[0].path == "team/cli/yank.md"
    assert not found.out_of_domain
    assert found.coverage >= ood.OOD_COVER


def test_a_long_unanswerable_question_stays_flagged(project: Project) -> None:
    """16 terms, 11 of them in no entry: the words no entry holds count whole at any length,
    so the entry holding 3 of the 5 known words covers 0.13 and the question is flagged
    (scaling every word by 6/16 instead would give 0.31 and let it through)."""
    _tree(project)
    question = " ".join(ORDINARY[:5] + UNKNOWN[:11])
    assert len(query_terms(question)) == 16
    found = search_tree(project, question, now=NOW, record=False)
    assert found.results[0].path == "misc/notes/mixed.md"
    assert found.out_of_domain
    assert found.coverage < ood.OOD_COVER


def test_up_to_judged_terms_nothing_changes(project: Project,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A question of at most ``JUDGED`` terms is judged on all its weight, as before."""
    _tree(project)
    question = " ".join(SPECIFIC[:1] + ORDINARY[3:8] + UNKNOWN[:2])  # 8 terms
    assert len(query_terms(question)) == ood.JUDGED
    found = search_tree(project, question, now=NOW, record=False)
    monkeypatch.setattr(ood, "JUDGED", 1000)
    again = search_tree(project, question, now=NOW, record=False)
    assert (found.coverage, found.out_of_domain) == (again.coverage, again.out_of_domain)


def test_judged_scales_only_the_known_words() -> None:
    """The rule itself: the held words' weight counts JUDGED/n, the others whole; capped at 1."""
    weight, highest = [2.0] * 14, 5.0
    whole = sum(weight) + 2 * highest  # 38
    assert ood.judged(0.5, weight[:6], 2, highest) == 0.5  # 8 terms: unchanged
    held = 0.25 * whole
    assert ood.judged(0.25, weight, 2, highest) == pytest.approx(
        held / (28.0 * 8 / 16 + 10.0))
    assert ood.judged(0.9, weight, 2, highest) == 1.0
