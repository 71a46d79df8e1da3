"""A lone letter beside a question's other words is searched ("functions in C", "list 'x'"),
never alone, never from an abbreviation, and never centres an excerpt or fills a title."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from retrieval_util import write_entry

from brv_vc.index.terms import QueryError, query_terms
from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project

NOW = datetime(2026, 1, 20, tzinfo=UTC)


def test_a_lone_letter_is_a_term_beside_other_words() -> None:
    assert query_terms("Can I create my own functions in C++?", letters=True) == [
        "create", "functions", "c"]
    assert query_terms("Why did changing list x change z?", letters=True) == [
        "changing", "list", "change", "x", "z"]
    # abbreviations and stop-word letters ("I", "a", "don't") are not letters to search
    assert query_terms("Sorting, e.g. by key, i.e. a custom order", letters=True) == [
        "sorting", "key", "custom", "order"]
    with pytest.raises(QueryError, match="under 2 characters"):
        query_terms("C", letters=True)
    # a dream's title words (candidates in other domains) leave them out
    assert query_terms("Plan B for the C build") == ["plan", "build"]


def test_the_entry_about_c_wins_over_one_about_the_other_words(project: Project) -> None:
    """The Python FAQ's "... from C?" questions lost their one specific word."""
    write_entry(project, "lang/ext/calling.md", "Extending",
                "Call PyObject_CallMethod() from C code to call a method of an object. "
                "The C API takes the method name.")
    write_entry(project, "lang/oop/methods.md", "Methods",
                "A method is a function of an object; call a method with obj.method(). "
                "Methods of an object are bound.")
    for i in range(8):
        write_entry(project, f"misc/n/note_{i}.md", f"Note {i}", f"Unrelated filler {i}.")
    found = search_tree(project, "How do I call an object's method from C?", now=NOW,
                        record=False)
    assert found.results[0].path == "lang/ext/calling.md"
    # the excerpt is centred on the question's words, not on every "c" of the text
    assert "method" in found.results[0].excerpt.lower()
