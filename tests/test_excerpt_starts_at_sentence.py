"""Search excerpts start at the matching sentence, never with a section heading."""

from __future__ import annotations

from datetime import UTC, datetime

from retrieval_util import write_entry

from brv_vc.index.excerpt import best_window, shorten
from brv_vc.services.query.search import search_tree
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
BODY = (
    "## Narrative\n\n### Lifetimes\n\nAccess tokens live fifteen minutes. Refresh tokens are "
    "single use: the old one is revoked when a new one is issued.\n"
)


def test_the_excerpt_is_the_matching_sentence_without_headings(project: Project) -> None:
    write_entry(project, "auth/jwt/rotation.md", "Rotation", BODY.split("\n\n", 1)[1])
    hit = search_tree(project, "revoked", now=NOW).results[0]
    assert hit.excerpt == (
        "Refresh tokens are single use: the old one is revoked when a new one is issued."
    )


def test_window_and_one_line_cut_start_at_a_sentence_or_a_word() -> None:
    assert best_window(BODY, ["fifteen"]).startswith("Access tokens live fifteen minutes.")
    assert "#" not in best_window(BODY, ["revoked"])
    long = "Intro words here. " + "filler " * 30 + "the token is revoked now and then again."
    cut = shorten(long, ["revoked"], width=60)
    assert cut.startswith("...")
    assert cut[3] != " "
    assert long[long.index(cut[3:20]) - 1] == " "  # the cut starts at a word
    assert "revoked" in cut
