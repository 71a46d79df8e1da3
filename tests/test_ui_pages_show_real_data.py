"""brv ui's pages show a real tree with git history, over real HTTP: the tree with counts and
signals, an entry with its relations, backlinks and per-commit semantic diffs, search with
brv search's ranking, the changes under git, and entry text that stays text."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run_brv
from ui_support import Client, served
from vc_helpers import git

from brv_vc.tree.project import Project


def test_the_tree_page_shows_domains_topics_counts_and_signals(client: Client) -> None:
    root = client.get("/")
    assert root.status == 200
    assert 'href="/?path=auth"' in root.body
    assert "2 entries" in root.body
    assert "<summary>1 topic</summary>" in root.body  # auth's topics, folded
    topic = client.get("/?path=auth/jwt").body
    assert "Token rotation" in topic
    assert "Signing keys" in topic
    assert 'class="badge m-draft"' in topic
    assert re.search(r'title="importance \d+\.\d of 100"', topic)


def test_the_tree_page_sees_entries_added_and_deleted_while_it_runs(
        client: Client, proj: Project) -> None:
    assert "2 entries" in client.get("/?path=auth/jwt").body
    done = run_brv("curate", "add", "auth/oauth", "--title", "Device flow",
                   "--content", "Devices poll the token endpoint.", cwd=proj.root)
    assert done.exit_code == 0, done.stderr
    root = client.get("/").body
    assert "3 entries" in root
    assert 'href="/?path=auth%2Foauth"' in root
    (proj.tree / "auth/jwt/signing_keys.md").unlink()  # by hand: the watch sees it
    assert "1 entry<" in client.get("/?path=auth/jwt").body
    assert "Signing keys" not in client.get("/?path=auth/jwt").body


def test_a_missing_folder_is_a_404_with_the_services_hint(client: Client) -> None:
    answer = client.get("/?path=nowhere")
    assert answer.status == 404
    assert "brv tree" in answer.body


def test_the_entry_page_shows_body_frontmatter_links_and_history(client: Client) -> None:
    page = client.get("/entry?path=auth/jwt/token_rotation.md").body
    assert "<h1>Token rotation</h1>" in page
    assert "expire after 14 days" in page
    assert 'href="/entry?path=auth%2Fjwt%2Fsigning_keys.md"' in page  # related, resolving
    assert "tokens expire" in page  # the newest commit
    assert "first knowledge" in page  # the first one
    assert '<span class="del">-Refresh tokens are single use.</span>' in page
    assert '<span class="add">+Refresh tokens are single use and expire after 14 days.</span>' in page
    keys = client.get("/entry?path=auth/jwt/signing_keys").body  # .md optional, as brv show
    assert re.search(r"<h3>Backlinks</h3><ul[^>]*><li><a href=\"/entry\?path=auth%2Fjwt%2F"
                     r"token_rotation.md\">", keys)


def test_the_entry_page_marks_a_dangling_relation(client: Client, proj: Project) -> None:
    rot = proj.tree / "auth/jwt/token_rotation.md"
    rot.write_text(rot.read_text().replace('related: ["auth/jwt/signing_keys.md"]',
                                           'related: ["auth/jwt/signing_keys.md", '
                                           '"auth/jwt/gone.md"]', 1))
    page = client.get("/entry?path=auth/jwt/token_rotation.md").body
    related = page[page.index("<h3>Related entries</h3>"):page.index("<h3>Backlinks</h3>")]
    assert 'href="/entry?path=auth%2Fjwt%2Fsigning_keys.md"' in related
    assert '<span class="hint">auth/jwt/gone.md (dangling)</span>' in related


def test_search_ranks_as_brv_search_and_highlights(client: Client, proj: Project) -> None:
    for query in ("refresh tokens expire", "keys rotate days"):
        api = client.get(f"/api/search?q={query.replace(' ', '+')}").json()
        cli = run_brv("search", query, "--no-record", "--json", cwd=proj.root).json()
        assert isinstance(api, dict)
        assert isinstance(cli, dict)
        assert [r["path"] for r in api["results"]] == [r["path"] for r in cli["results"]]
        assert api["results"], query
    page = client.get("/search?q=expire").body
    assert "<mark>expire</mark>" in page
    assert 'href="/entry?path=auth%2Fjwt%2Ftoken_rotation.md"' in page


def test_a_query_of_stop_words_says_why_on_the_page_and_in_json(client: Client) -> None:
    assert "only stop words" in client.get("/search?q=the").body
    answer = client.get("/api/search?q=the")
    assert answer.status == 400
    body = answer.json()
    assert isinstance(body, dict)
    assert body["ok"] is False


def test_looking_in_the_ui_records_no_hit(client: Client, proj: Project) -> None:
    before = run_brv("show", "auth/jwt/token_rotation.md", "--json", cwd=proj.root).json()
    client.get("/api/search?q=tokens")
    client.get("/entry?path=auth/jwt/token_rotation.md")
    after = run_brv("show", "auth/jwt/token_rotation.md", "--json", cwd=proj.root).json()
    assert isinstance(before, dict)
    assert isinstance(after, dict)
    assert after["signals"]["access_count"] == before["signals"]["access_count"]


def test_an_entry_holding_html_renders_it_as_text(client: Client, proj: Project) -> None:
    hostile = '<script>alert("x")</script> <img src=x onerror=alert(1)> [a](javascript:alert(1))'
    done = run_brv("curate", "add", "web/xss", "--title", "Script <b>inside</b>",
                   "--content", hostile, cwd=proj.root)
    assert done.exit_code == 0, done.stderr
    rel = "web/xss/" + next((proj.tree / "web/xss").glob("script*.md")).name
    pages = [client.get(f"/entry?path={rel}").body, client.get("/?path=web/xss").body,
             client.get("/search?q=alert+inside").body, client.get("/vc").body]
    for body in pages:
        assert "<script>alert" not in body
        assert "<img src=x" not in body
        assert "<b>inside</b>" not in body
        assert 'href="javascript:' not in body
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in pages[0]
    assert "Script &lt;b&gt;inside&lt;/b&gt;" in pages[1]


def test_the_changes_page_shows_uncommitted_and_unpushed_knowledge(
        client: Client, proj: Project, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(proj.root, "remote", "add", "origin", str(remote))
    git(proj.root, "push", "-q", "-u", "origin", "main")
    assert "Nothing to commit" in client.get("/vc").body
    done = run_brv("curate", "update", "auth/jwt/signing_keys.md", "--content",
                   "Keys rotate every 30 days.", cwd=proj.root)
    assert done.exit_code == 0, done.stderr
    page = client.get("/vc").body
    assert "Not staged" in page
    assert 'href="/vc?uncommitted=1"' in page
    page = client.get("/vc?uncommitted=1").body
    assert "Uncommitted knowledge changes" in page
    assert "+Keys rotate every 30 days." in page
    git(proj.root, "add", "-A")
    git(proj.root, "commit", "-qm", "monthly keys")
    page = client.get("/vc").body
    assert "1 commit(s) to push" in page
    assert "<h2>Unpushed" in page
    assert "+Keys rotate every 30 days." in page


def test_the_history_follows_an_entry_across_a_rename(client: Client, proj: Project) -> None:
    old = ".brv/context-tree/auth/jwt/token_rotation.md"
    new = ".brv/context-tree/auth/jwt/token_rotation_policy.md"
    git(proj.root, "mv", old, new)
    git(proj.root, "commit", "-qm", "a clearer name")
    page = client.get("/entry?path=auth/jwt/token_rotation_policy.md").body
    for subject in ("a clearer name", "tokens expire", "first knowledge"):
        assert subject in page
    assert "auth/jwt/token_rotation.md → auth/jwt/token_rotation_policy.md" in page


def test_a_project_without_git_shows_how_to_start(project: Project) -> None:
    with served(project) as client:
        page = client.get("/vc").body
        assert "brv vc init" in page
        assert "Not committed" not in page


def test_the_assets_are_ours_and_served_from_the_package(client: Client) -> None:
    css = client.get("/static/ui.css")
    js = client.get("/static/ui.js")
    assert css.status == 200
    assert css.headers["content-type"].startswith("text/css")
    assert "/api/search" in js.body
    assert client.get("/static/../guard.py").status == 404
    page = client.get("/").body
    assert not re.search(r'(src|href)="(https?:)?//', page)  # no CDN, nothing remote
    setup = (Path(__file__).resolve().parents[1] / "setup.cfg").read_text()
    assert "brv_vc.web = static/*" in setup  # shipped in the wheel, not only in a checkout
