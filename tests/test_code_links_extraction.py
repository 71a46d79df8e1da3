"""Which paths link an entry to code: its Files: list (as seed 000 and brv curate write it),
paths in its text that the repository has, never a path outside the repository; the index
keeps them incrementally as entries change."""

from __future__ import annotations

from pathlib import Path

from code_links_support import Repo

from brv_vc.index.code_refs import extract
from brv_vc.services import code_links


def test_the_files_list_in_every_written_form() -> None:
    body = ("## Raw Concept\n**Task:**\nJWT\n\n**Files:**\n- src/auth/jwt.ts\n"
            "- `src/auth/refresh.ts` (rotation)\n- src/keys.py:12-30\n\n**Flow:**\nlogin\n")
    inline = "**Files:** src/a.py, src/b.py\n"
    assert [p for p, how in extract(body) if how == "files"] == [
        "src/auth/jwt.ts", "src/auth/refresh.ts", "src/keys.py"]
    assert extract(inline) == (("src/a.py", "files"), ("src/b.py", "files"))


def test_text_candidates_need_a_folder_and_skip_urls() -> None:
    found = dict(extract("See https://x.org/src/a.py, `setup.py`, `src/b.py`, ./docs/x.md, "
                         "./CONTRIBUTING.rst or and/or."))
    assert "setup.py" not in found  # a bare name mostly means any project's file
    assert "src/b.py" in found
    assert "docs/x.md" in found
    assert "CONTRIBUTING.rst" in found  # "./" says it is this repository's
    assert "and/or" in found  # a candidate; it links only if the repository has such a path
    assert not any("x.org" in p for p in found)


def test_curate_raw_concept_files_link(tmp_path: Path, brv) -> None:
    repo = Repo(tmp_path / "proj", "in-project")
    repo.write("src/auth/jwt.py", "a\n")
    repo.commit("code")
    ops = ('[{"type": "ADD", "path": "auth/jwt", "title": "Signing", "reason": "r",'
           ' "rawConcept": {"task": "sign", "files": ["src/auth/jwt.py"]}}]')
    assert brv("curate", "--ops", "-", cwd=repo.root, input=ops).exit_code == 0
    assert code_links.linked_entries(repo.project, ["src/auth/jwt.py"]) == {
        "src/auth/jwt.py": ("auth/jwt/signing.md",)}


def test_text_links_resolve_only_to_paths_the_repository_has(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "proj", "in-project")
    repo.write("src/auth/jwt.py", "a\n")
    repo.commit("code")
    repo.entry("auth/jwt/x.md", [], text="Uses src/auth/jwt.py and/or src/nowhere.py via TCP/IP.")
    report = code_links.stale(repo.project)
    assert report.linked_entries == 1
    repo.write("src/auth/jwt.py", "b\n")
    repo.commit("change")
    (item,) = code_links.stale(repo.project).entries
    assert item.files == ("src/auth/jwt.py",)


def test_files_outside_the_repository_are_reported_not_linked(tmp_path: Path, brv) -> None:
    repo = Repo(tmp_path / "proj", "standalone")
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x\n")
    repo.write("src/a.py", "a\n")
    repo.commit("code")
    repo.entry("misc/files/x.md", ["src/a.py", "../elsewhere.py", str(outside)])
    report = code_links.stale(repo.project)
    assert {(o.entry, o.path) for o in report.outside} == {
        ("misc/files/x.md", "../elsewhere.py"), ("misc/files/x.md", str(outside))}
    text = brv("stale", cwd=repo.root).stdout
    assert "not linked: misc/files/x.md names ../elsewhere.py, outside the repository" in text


def test_the_index_follows_edits_of_the_entry(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "proj", "in-project")
    repo.write("src/a.py", "a\n")
    repo.write("src/b.py", "b\n")
    repo.commit("code")
    repo.entry("misc/files/x.md", ["src/a.py"])
    assert code_links.linked_entries(repo.project, ["src/a.py", "src/b.py"]) == {
        "src/a.py": ("misc/files/x.md",), "src/b.py": ()}
    path = repo.project.tree / "misc/files/x.md"
    path.write_text(path.read_text().replace("src/a.py", "src/b.py"))
    assert code_links.linked_entries(repo.project, ["src/a.py", "src/b.py"]) == {
        "src/a.py": (), "src/b.py": ("misc/files/x.md",)}
    path.unlink()
    assert code_links.linked_entries(repo.project, ["src/b.py"]) == {"src/b.py": ()}


def test_a_project_in_a_monorepo_folder_names_paths_from_its_root(tmp_path: Path) -> None:
    import subprocess

    from brv_vc.services.init import init_project
    from brv_vc.tree.project import Project

    top = tmp_path / "mono"
    (top / "svc/api/src").mkdir(parents=True)
    (top / "svc/api/src/app.py").write_text("a\n")
    subprocess.run(["git", "init", "-q", str(top)], check=True)
    subprocess.run(["git", "-C", str(top), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(top), "commit", "-qm", "c"], check=True)
    init_project(top / "svc/api")
    project = Project(top / "svc/api")
    (project.tree / "api/app").mkdir(parents=True)
    (project.tree / "api/app/x.md").write_text("---\ntitle: X\n---\n**Files:**\n- src/app.py\n")
    assert code_links.linked_entries(project, ["svc/api/src/app.py"]) == {
        "svc/api/src/app.py": ("api/app/x.md",)}
