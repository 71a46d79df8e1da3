"""The tier-2 answer text: 5,000 characters of each document, cut inside long paragraphs."""

from __future__ import annotations

from datetime import UTC, datetime

from retrieval_util import write_entry

from brv_vc.format.body import build_body
from brv_vc.format.entry import Entry, serialize_entry
from brv_vc.services.query import query_tree
from brv_vc.services.query.direct import DIRECT_CHARS
from brv_vc.services.query.text import cut_text, first_sentences, readable
from brv_vc.tree.project import Project
from brv_vc.tree.store import write_atomic

NOW = datetime(2026, 1, 20, tzinfo=UTC)
OPENING = "The walrus protocol: every deploy is gated by a canary."
LONG = OPENING + " " + "More detail about gating. " * 220  # one 5,800-character line


def write_sections(project: Project, relpath: str, title: str,
                   sections: list[tuple[str, str]]) -> None:
    entry = Entry(title=title, summary="", tags=(), keywords=(), related=(),
                  created_at="2026-01-01T10:00:00Z", updated_at="2026-01-10T10:00:00Z",
                  body=build_body(sections))
    write_atomic(project.tree / relpath, serialize_entry(entry))


def details_of(answer: str) -> str:
    """The document's block in Details (between its ### line and Sources:)."""
    block = answer.split("\n### ", 1)[1].split("\n\nSources:", 1)[0]
    return block.split("\n", 1)[1]


def test_an_overlong_paragraph_is_cut_inside_not_dropped(project: Project) -> None:
    write_sections(project, "ops/deploy/walrus.md", "Walrus protocol",
                   [("Narrative", LONG), ("Facts", "- rollback takes two minutes")])
    answer = query_tree(project, "walrus protocol canary", now=NOW).answer
    block = details_of(answer)
    assert OPENING in block
    assert "## Facts\n- rollback takes two minutes" in block  # the later section is kept
    assert "\n[...]" not in block  # no section replaced by the mark alone
    assert block.count("More detail about gating.") > 150  # most of the budget is text
    assert len(block) <= DIRECT_CHARS
    narrative = block.split("## Facts")[0]
    assert narrative.rstrip().endswith("gating. [...]")  # cut at a sentence end


def test_several_long_sections_share_the_budget(project: Project) -> None:
    write_sections(project, "ops/deploy/walrus.md", "Walrus protocol",
                   [("Narrative", LONG), ("Details", "Canary hosts rotate weekly. " * 300),
                    ("Facts", "- rollback takes two minutes")])
    block = details_of(query_tree(project, "walrus protocol canary", now=NOW).answer)
    assert "## Narrative\nThe walrus protocol" in block
    assert "## Details\nCanary hosts rotate weekly." in block
    assert "## Facts\n- rollback takes two minutes" in block
    assert 4000 < len(block) <= DIRECT_CHARS


def test_a_short_document_is_shown_whole(project: Project) -> None:
    write_entry(project, "ops/deploy/walrus.md", "Walrus protocol", "Canary first.\n\n\nThen all.")
    block = details_of(query_tree(project, "walrus canary", now=NOW).answer)
    assert block == "## Narrative\nCanary first.\n\nThen all."


def test_summary_line_without_a_summary_is_the_opening_sentences(project: Project) -> None:
    write_sections(project, "ops/deploy/walrus.md", "Walrus protocol", [("Narrative", LONG)])
    answer = query_tree(project, "walrus protocol canary", now=NOW).answer
    first = answer.splitlines()[0]
    assert "##" not in first
    assert first == f"Summary: Walrus protocol: {OPENING} More detail about gating."


def test_summary_line_uses_the_entry_summary(project: Project) -> None:
    write_entry(project, "ops/deploy/walrus.md", "Walrus protocol", LONG,
                summary="Deploys wait for the canary.")
    answer = query_tree(project, "walrus protocol canary", now=NOW).answer
    assert answer.splitlines()[0] == "Summary: Walrus protocol: Deploys wait for the canary."


def test_cut_text_prefers_sentences_then_words() -> None:
    assert cut_text("short", 10) == "short"
    assert cut_text("One two. Three four five six seven", 20) == "One two. [...]"
    assert cut_text("alpha beta gamma delta epsilon zeta", 24) == "alpha beta gamma [...]"
    assert cut_text("x" * 50, 20) == "x" * 14 + " [...]"
    assert len(cut_text("word " * 1000, 333)) <= 333


def test_readable_never_exceeds_the_budget() -> None:
    text = "## A\n" + "aa. " * 900 + "\n\n## B\n" + "b " * 50 + "\n\n## C\n" + "cc " * 2000
    out = readable(text, 1000)
    assert len(out) <= 1000
    assert [line for line in out.splitlines() if line.startswith("## ")] == ["## A", "## B", "## C"]
    assert "## B\n" + ("b " * 50).strip() in out  # a short section stays whole


def test_first_sentences() -> None:
    assert first_sentences("## Narrative\nOne. Two. Three.", 300) == "One. Two."
    assert first_sentences("No full stop", 300) == "No full stop"
    assert first_sentences("word " * 200, 30).endswith(" [...]")


def test_answers_cached_by_an_older_brv_are_not_served(project: Project) -> None:
    import time

    from brv_vc.index import cache
    from brv_vc.index.db import get_meta
    from brv_vc.index.terms import normalize, significant
    from brv_vc.services.derived.index import with_index

    write_sections(project, "ops/deploy/walrus.md", "Walrus protocol", [("Narrative", LONG)])
    question = "walrus protocol canary"
    assert query_tree(project, question, now=NOW).tier == 2

    def plant(opened) -> None:  # type: ignore[no-untyped-def]
        # an answer in the old shape, stored under the bare tree fingerprint as before
        old = {"answer": "## Narrative\n[...]", "tier": 2, "top_score": 0.5,
               "out_of_domain": False, "note": "", "matched": []}
        fingerprint = get_meta(opened.conn, "fingerprint") or "0"
        cache.put(opened.conn, normalize(question), set(significant(question)), fingerprint,
                  old, time.time() + 60)

    with_index(project, plant)
    result = query_tree(project, question, now=NOW)
    assert result.answer.startswith("Summary: Walrus protocol:")
    assert OPENING in result.answer
