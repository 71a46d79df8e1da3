"""brv ui's gate, over real HTTP on loopback: the token, the Host header (DNS rebinding),
same-origin POSTs, paths that leave the tree, and entry text that must render as text."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from ui_support import TOKEN, Client

from brv_vc.tree.project import Project


def test_the_server_listens_on_loopback_only(proj: Project) -> None:
    from brv_vc import web
    from brv_vc.errors import UsageError
    from brv_vc.web import server

    with server.running(web.app(proj, TOKEN)) as sock:
        assert sock.getsockname()[0] == "127.0.0.1"
    with pytest.raises(UsageError, match="loopback"):
        server.bind(0, "0.0.0.0")


def test_a_request_without_the_token_is_refused(client: Client) -> None:
    assert client.get("/", token=None).status == 403
    assert client.get("/", token="wrong").status == 403
    assert client.get("/static/ui.css", token=None).status == 403
    assert client.get("/api/search?q=tokens", token=None).status == 403
    assert client.get("/nowhere", token=None).status == 403


def test_the_token_in_the_url_sets_a_strict_httponly_cookie(client: Client) -> None:
    answer = client.get(f"/?path=auth&token={TOKEN}", token=None)
    assert answer.status == 303
    assert answer.headers["location"] == "/?path=auth"  # the token leaves the address bar
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"brv_ui_{client.port}={TOKEN}")
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert client.get("/").status == 200  # the cookie alone is enough afterwards
    assert client.get(f"/api/search?q=tokens&token={TOKEN}", token=None).status == 200
    assert "set-cookie" not in client.get("/").headers


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1:1", "localhost",
                                  "127.0.0.1.nip.io:{port}", ""])
def test_a_foreign_host_header_is_refused(client: Client, host: str) -> None:
    answer = client.get("/", host_header=host.format(port=client.port) or " ")
    assert answer.status == 400


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}"])
def test_the_loopback_names_are_served(client: Client, host: str) -> None:
    assert client.get("/", host_header=host.format(port=client.port)).status == 200


def test_a_post_from_another_origin_or_without_one_is_refused(client: Client) -> None:
    where = "/review/1/approve"
    assert client.post(where, headers={"Origin": "http://evil.example"}).status == 403
    assert client.request("POST", where, form={}).status == 403  # neither Origin nor Referer
    referer = {"Referer": "http://evil.example/x"}
    assert client.request("POST", where, form={}, headers=referer).status == 403
    assert client.post(where, token=None).status == 403


def test_other_methods_cannot_change_anything(client: Client) -> None:
    for method in ("PUT", "DELETE", "PATCH"):
        answer = client.request(method, "/review/1/approve", headers={"Origin": client.origin})
        assert answer.status == 403


def test_a_state_change_is_not_reachable_by_get(client: Client) -> None:
    assert client.get("/review/1/approve").status == 405
    assert client.get("/dreams/drm-1/undo").status == 405


@pytest.mark.parametrize("path", ["../../etc/passwd", "/etc/passwd", "auth/../../x.md",
                                  "..%2F..%2Fetc%2Fpasswd", ".git/config", "auth/.hidden.md",
                                  "auth%00.md"])
def test_an_entry_path_never_leaves_the_tree(client: Client, path: str) -> None:
    answer = client.get(f"/entry?path={path}")
    assert answer.status in (400, 404)
    assert "root:" not in answer.body
    assert "\x00" not in answer.body


def test_a_symlink_out_of_the_tree_is_not_followed(client: Client, proj: Project,
                                                   tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("---\ntitle: Secret\n---\nTOP-SECRET-TEXT\n")
    os.symlink(secret, proj.tree / "auth" / "jwt" / "leak.md")
    for path in ("/entry?path=auth/jwt/leak.md", "/?path=auth/jwt"):
        answer = client.get(path)
        assert "TOP-SECRET-TEXT" not in answer.body
    assert client.get("/entry?path=auth/jwt/leak.md").status in (400, 404)


def test_a_port_in_use_is_a_clear_error_with_exit_1(proj: Project) -> None:
    from conftest import run_brv

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    port = holder.getsockname()[1]
    try:
        result = run_brv("ui", "--port", str(port), "--no-open", cwd=proj.root)
    finally:
        holder.close()
    assert result.exit_code == 1
    assert f"port {port}" in result.stderr
    assert "in use" in result.stderr


def test_ipv6_loopback_serves_with_its_own_host_name(proj: Project) -> None:
    from brv_vc import web
    from brv_vc.errors import BrvError
    from brv_vc.web import server

    try:
        server.bind(0, "::1").close()
    except (BrvError, OSError):
        pytest.skip("no IPv6 loopback on this machine")
    with server.running(web.app(proj, TOKEN), host="::1") as sock:
        client = Client(sock.getsockname()[1], host="::1")
        assert client.get("/", host_header=f"[::1]:{client.port}").status == 200
        assert client.get("/", host_header=f"evil.example:{client.port}").status == 400
