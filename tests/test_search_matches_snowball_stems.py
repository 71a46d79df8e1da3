"""Issue 37: the index and the queries share Snowball's English stems (Porter2), not porter's.

Porter left an adverb apart from its adjective ("regularly" -> "regularli", "regular"), so a
question saying "regularly" found nothing in an entry saying "regular"; Snowball stems both
"regular". Both sides take the one rule of ``index.stems``: the writer stems the text FTS5
indexes, ``terms.phrases`` the words a search asks for, and an edited or deleted entry's
old stems go with it (the same rule gives the contentless table its old values back).
"""

from __future__ import annotations

from datetime import UTC, datetime

from retrieval_util import write_entry

from brv_vc.index.stems import indexed, stem_of
from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project

NOW = datetime(2026, 1, 20, tzinfo=UTC)


def _paths(project: Project, text: str) -> list[str]:
    return [r.path for r in search_tree(project, text, now=NOW, record=False).results]


def test_an_adverb_finds_the_entry_saying_its_adjective(project: Project) -> None:
    write_entry(project, "ops/keys/rotation.md", "Key rotation",
                "Keys are rotated on a regular schedule, quick to undo.")
    write_entry(project, "ops/keys/leavers.md", "Leavers", "Access goes when a person leaves.")
    assert _paths(project, "regularly") == ["ops/keys/rotation.md"]
    assert _paths(project, "quickly") == ["ops/keys/rotation.md"]


def test_query_words_and_indexed_text_take_the_same_stem() -> None:
    assert stem_of("regularly") == stem_of("regular") == "regular"
    assert stem_of("Deploying") == indexed("deploys") == "deploy"
    assert indexed("Café_crème, naïve!") == "cafe creme naiv"  # unicode61's words, stemmed


def test_an_edit_moves_the_entry_to_its_new_stems(project: Project) -> None:
    path = project.tree / "ops/keys/rotation.md"
    write_entry(project, "ops/keys/rotation.md", "Key rotation", "Rotated on a fair schedule.")
    assert _paths(project, "fairly") == ["ops/keys/rotation.md"]
    path.write_text(path.read_text().replace("fair", "yearly"))
    assert _paths(project, "fairly") == []
    assert _paths(project, "years") == ["ops/keys/rotation.md"]
