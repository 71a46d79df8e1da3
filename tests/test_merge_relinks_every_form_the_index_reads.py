"""A relation names one path however it is written (``format/relations.py``): a MERGE rewrites
every link the search index reads as naming its source, so it leaves no dangling link (a link
written ``./auth/jwt/old.md`` was indexed as ``auth/jwt/old.md`` and left by the relink)."""

from __future__ import annotations

import pytest

from brv_vc.format.entry import parse_entry
from brv_vc.tree.project import Project
from brv_vc.tree.store import write_atomic

FORMS = ["./auth/jwt/old.md", "@./auth/jwt/old.md", "/auth/jwt/old.md", "auth/jwt/old.md/",
         " @auth/jwt/old.md ", ".//auth/jwt/old.md", "Auth/JWT/old.md"]


@pytest.mark.parametrize("form", FORMS)
def test_a_merge_leaves_no_dangling_link(project: Project, brv, form: str) -> None:
    root = project.root
    for title in ("Old", "New"):
        done = brv("curate", "add", "auth/jwt", "--title", title, "--content", title, cwd=root)
        assert done.exit_code == 0, done.stderr
    related = form.replace('"', "")
    write_atomic(project.tree / "auth/jwt/linker.md", (
        f'---\ntitle: "Linker"\nrelated: ["{related}"]\n---\n\n## Narrative\nx\n\n'
        f"## Relations\n- @{related.strip().lstrip('@')}\n").encode())
    indexed = brv("relations", "--dangling", "--json", cwd=root)  # the index reads the link
    assert indexed.exit_code == 0, indexed.stderr
    assert "linker.md" not in indexed.stdout or "Auth/JWT" in form
    merged = brv("curate", "merge", "auth/jwt/old.md", "--into", "auth/jwt/new.md",
                 "--reason", "dup", cwd=root)
    assert merged.exit_code == 0, merged.stderr
    linker = parse_entry((project.tree / "auth/jwt/linker.md").read_bytes(), file="linker.md")
    assert linker.related == ("auth/jwt/new.md",)
    assert "old.md" not in linker.body
    dangling = brv("relations", "--dangling", "--json", cwd=root)
    assert dangling.exit_code == 0, dangling.stderr
    assert "linker.md" not in dangling.stdout
