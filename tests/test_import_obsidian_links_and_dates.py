"""An Obsidian import keeps aliased and folder-qualified links, maps dates, counts lost links."""

from __future__ import annotations

from pathlib import Path

from brv_vc.format.entry import parse_entry
from brv_vc.tree.project import Project


def _vault(root: Path, notes: int = 40) -> None:
    for i in range(notes):
        folder = root / f"Area {i % 4}" / f"Project {i % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        nxt, far = (i + 1) % notes, (i + 7) % notes
        body = (
            f"---\ncreated: 2024-03-{1 + i % 28:02d}\nupdated: 2024-06-01T08:30:00\n"
            f"tags: [vault]\n---\n# Note {i}\n"
            f"Next: [[Area {nxt % 4}/Project {nxt % 3}/Note {nxt}|the next one]].\n"
            f"Far: [[Project {far % 3}/Note {far}]] and [[Note {far}#Heading|alias]].\n"
            f"| table | [[Area {far % 4}/Project {far % 3}/Note {far}\\|escaped]] |\n"
            "![[diagram.png]]\n"
        )
        (folder / f"Note {i}.md").write_text(body)


def test_aliased_links_all_resolve(project: Project, brv, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _vault(vault)
    result = brv("import", str(vault), "--from", "obsidian", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    doc = result.json()
    assert doc["unresolved"] == []
    assert len(doc["imported"]) == 40
    assert all(len(item["related"]) == 2 for item in doc["imported"]), doc["imported"][:3]
    first = next(i for i in doc["imported"] if i["source"] == "Area 0/Project 0/Note 0.md")
    entry = parse_entry((project.tree / first["path"]).read_bytes())
    assert entry.created_at == "2024-03-01T00:00:00Z"
    assert entry.updated_at == "2024-06-01T08:30:00Z"
    assert len(entry.related) == 2


def test_unresolved_links_are_counted_and_listed(project: Project, brv, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "A.md").write_text("---\ndate: 2023-12-24\n---\nSee [[B|bee]] and [[Nowhere/C]].\n")
    (vault / "B.md").write_text("Back to [[A]].\n")
    text = brv("import", str(vault), "--from", "obsidian", cwd=project.root)
    assert text.exit_code == 0, text.stderr
    assert "links: 2 kept as related, 1 unresolved" in text.stdout
    assert "A.md: [[Nowhere/C]]" in text.stdout
    again = brv("import", str(vault), "--from", "obsidian", "--json", cwd=project.root).json()
    assert again["unresolved"] == [{"source": "A.md", "link": "Nowhere/C"}]
    entry = parse_entry((project.tree / "notes/general/a.md").read_bytes())
    assert entry.created_at == entry.updated_at == "2023-12-24T00:00:00Z"
