"""One importance figure per entry: show, brain and the manifest print the same 0-100 value."""

from __future__ import annotations

import re

from brv_vc.tree.project import Project

ENTRY = "auth/jwt/token_rotation.md"


def test_show_brain_and_manifest_agree(seeded: Project, brv) -> None:
    for _ in range(4):  # each search hit adds to the entry's importance
        assert brv("search", "stored text", cwd=seeded.root).exit_code == 0
    shown = brv("show", ENTRY, "--json", cwd=seeded.root).json()["signals"]["importance"]
    assert shown > 50
    text = brv("show", ENTRY, cwd=seeded.root).stdout
    assert f"importance {shown:.1f}" in text
    brain = brv("brain", cwd=seeded.root).stdout
    line = next(ln for ln in brain.splitlines() if ENTRY in ln)
    assert re.search(rf"importance {shown:.1f}\b", line), line
    manifest = brv("manifest", "--json", cwd=seeded.root).json()
    row = next(r for r in manifest["contexts"] if r["path"] == ENTRY)
    assert row["importance"] == shown
