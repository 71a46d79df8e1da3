"""Words of a question of one stem ("differences", "different") count once; two
rare words that only share their first letters stay two terms."""

from __future__ import annotations

from datetime import UTC, datetime

from retrieval_util import write_entry

from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project

NOW = datetime(2026, 1, 20, tzinfo=UTC)


def test_words_of_one_stem_count_once(project: Project) -> None:
    write_entry(project, "lang/str/kinds.md", "Strings",
                "The two string types: String owns its text, str borrows it.")
    write_entry(project, "lang/misc/diff.md", "Comparisons",
                "How the languages differ: different rules, different defaults.")
    write_entry(project, "lang/misc/more.md", "Design", "Rules differ by design.")
    for i in range(8):
        write_entry(project, f"misc/n/note_{i}.md", f"Note {i}", f"Unrelated filler {i}.")
    found = search_tree(project, "differences between the different string types", now=NOW,
                        record=False)
    assert found.terms == ("differences", "string", "types")
    assert found.results[0].path == "lang/str/kinds.md"


def test_rare_words_sharing_a_prefix_stay_apart(project: Project) -> None:
    write_entry(project, "ops/cfg/a.md", "Settings", "The configuration file lives in etc.")
    write_entry(project, "ops/cfg/b.md", "Secrets", "Confidential values go to the vault.")
    found = search_tree(project, "confidential configuration", now=NOW, record=False)
    assert found.terms == ("confidential", "configuration")
    assert {r.path for r in found.results} == {"ops/cfg/a.md", "ops/cfg/b.md"}
