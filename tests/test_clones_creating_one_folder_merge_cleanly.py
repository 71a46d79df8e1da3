"""Teammates who each curate the first entry of the same new domain or topic merge with no
human step: through ``brv vc pull``, plain ``git pull`` and a forge's plain ``git merge`` (no
merge driver), in both git modes; the generated ``context.md`` files come out identical."""

from __future__ import annotations

from pathlib import Path

from vc_helpers import Member, git, in_project_app, make_member, start_team

from brv_vc.tree.layout import Kind, kind_of

TOPIC = "billing/invoices"
CONTEXTS = ("billing/context.md", "billing/invoices/context.md")


def _curate(member: Member, folder: str, title: str, summary: str, tags: str) -> None:
    """The member's first entry in ``folder``, committed (not pushed)."""
    member.ok("curate", "add", folder, "--title", title, "--summary", summary,
              "--content", f"{title}: {summary}.", "--tags", tags)
    member.ok("vc", "add")
    member.ok("vc", "commit", "-m", f"{member.name}: {title}")


def _entries(member: Member) -> set[str]:
    paths = (p.relative_to(member.tree).as_posix() for p in member.tree.glob("billing/*/*.md"))
    return {path for path in paths if kind_of(path) is Kind.ENTRY}


def _same_contexts(*members: Member, paths: tuple[str, ...] = CONTEXTS) -> None:
    for path in paths:
        texts = {member.text(path) for member in members}
        assert len(texts) == 1, f"{path} differs between clones"
        assert "<<<<<<<" not in texts.pop()


def _standalone_pair(tmp_path: Path) -> tuple[Member, Member]:
    team = start_team(tmp_path)
    return team.alice, team.bob


def _in_project_pair(tmp_path: Path) -> tuple[Member, Member]:
    app = in_project_app(tmp_path, "auth/jwt/token_rotation.md")
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(app.root), str(bare))
    members = []
    for name in ("alice", "bob"):
        git(tmp_path, "clone", "-q", str(bare), name)
        member = Member(name, tmp_path / name)
        member.ok("vc", "init", "--in-project")
        members.append(member)
    return members[0], members[1]


def _both_curate_the_new_topic(alice: Member, bob: Member) -> None:
    _curate(alice, TOPIC, "Invoice numbering", "Numbers are sequential per year", "alice")
    _curate(bob, TOPIC, "Invoice currency", "Invoices carry the customer's currency", "bob")
    alice.ok("vc", "push")


def test_standalone_brv_pull_of_the_same_new_topic(tmp_path: Path) -> None:
    alice, bob = _standalone_pair(tmp_path)
    _both_curate_the_new_topic(alice, bob)
    pulled = bob.ok("vc", "pull", "--json").json()
    assert pulled["conflicts"] == []
    bob.ok("vc", "push")
    alice.ok("vc", "pull")
    assert _entries(alice) == _entries(bob) == {
        "billing/invoices/invoice_numbering.md", "billing/invoices/invoice_currency.md"}
    _same_contexts(alice, bob)


def test_in_project_brv_pull_of_the_same_new_topic(tmp_path: Path) -> None:
    alice, bob = _in_project_pair(tmp_path)
    _both_curate_the_new_topic(alice, bob)
    pulled = bob.ok("vc", "pull", "--json").json()
    assert pulled["conflicts"] == []
    assert len(_entries(bob)) == 2
    _same_contexts(alice, bob)


def test_standalone_plain_git_pull_in_the_tree_repository(tmp_path: Path) -> None:
    alice, bob = _standalone_pair(tmp_path)
    _both_curate_the_new_topic(alice, bob)
    git(bob.tree, "pull", "-q", "--no-rebase", "--no-edit")
    assert git(bob.tree, "ls-files", "--unmerged") == ""
    assert len(_entries(bob)) == 2
    _same_contexts(alice, bob)


def test_in_project_plain_git_pull(tmp_path: Path) -> None:
    alice, bob = _in_project_pair(tmp_path)
    _both_curate_the_new_topic(alice, bob)
    git(bob.root, "pull", "-q", "--no-rebase", "--no-edit")
    assert git(bob.root, "ls-files", "--unmerged") == ""
    assert len(_entries(bob)) == 2
    _same_contexts(alice, bob)


def test_same_new_domain_different_topics(tmp_path: Path) -> None:
    alice, bob = _standalone_pair(tmp_path)
    _curate(alice, "billing/invoices", "Invoice numbering", "Sequential per year", "alice")
    _curate(bob, "billing/refunds/partial", "Partial refunds", "Refund part of an order", "bob")
    alice.ok("vc", "push")
    assert bob.ok("vc", "pull", "--json").json()["conflicts"] == []
    bob.ok("vc", "push")
    alice.ok("vc", "pull")
    _same_contexts(alice, bob, paths=("billing/context.md",))
    assert (bob.tree / "billing/refunds/partial/context.md").is_file()


def test_forge_merge_of_two_branches_with_no_drivers(tmp_path: Path) -> None:
    """What a forge's merge button does: git's own text merge, no brv, no merge driver."""
    app = in_project_app(tmp_path, "auth/jwt/token_rotation.md")
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(app.root), str(bare))
    for name in ("alice", "bob"):
        git(tmp_path, "clone", "-q", str(bare), name)
        member = Member(name, tmp_path / name)
        member.ok("vc", "init", "--in-project")
        git(member.root, "checkout", "-q", "-b", name)
        _curate(member, TOPIC, f"{name} invoices", f"Invoices as {name} knows them", name)
        git(member.root, "push", "-q", "origin", name)
    forge = tmp_path / "forge"
    git(tmp_path, "clone", "-q", str(bare), str(forge))  # brv never ran here: no drivers
    assert git(forge, "config", "--get-regexp", r"^merge\.", check=False) == ""
    git(forge, "merge", "-q", "--no-edit", "origin/alice")
    git(forge, "merge", "-q", "--no-edit", "origin/bob")
    assert git(forge, "ls-files", "--unmerged") == ""
    merged = forge / ".brv/context-tree"
    assert {p.name for p in (merged / TOPIC).glob("*.md")} == {
        "context.md", "alice_invoices.md", "bob_invoices.md"}
    alice = tmp_path / "alice/.brv/context-tree"
    for path in CONTEXTS:
        assert (merged / path).read_bytes() == (alice / path).read_bytes()


def test_four_clones_in_one_new_topic_all_push_in_one_round(tmp_path: Path) -> None:
    team = start_team(tmp_path)
    members = [team.alice, team.bob]
    for name in ("carol", "dave"):
        member = make_member(tmp_path, name)
        member.ok("vc", "clone", str(team.remote))
        members.append(member)
    for member in members:
        _curate(member, TOPIC, f"{member.name} invoices", f"Invoices per {member.name}",
                member.name)
    for member in members:  # one round: pull what the others pushed, then push
        assert member.ok("vc", "pull", "--json").json()["conflicts"] == []
        member.ok("vc", "push")
    for member in members:
        member.ok("vc", "pull")
    heads = {member.git("rev-parse", "HEAD") for member in members}
    assert len(heads) == 1
    assert len(_entries(team.alice)) == 4
    _same_contexts(*members)


def test_forge_merge_of_two_first_inits_of_one_code_project(tmp_path: Path) -> None:
    """Each teammate brings brv into the same code project: every file brv wrote is the same."""
    origin = make_member(tmp_path, "origin")
    git(origin.root, "init", "-q")
    (origin.root / "app.py").write_text("print('v1')\n")
    git(origin.root, "add", ".")
    git(origin.root, "commit", "-q", "-m", "code")
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin.root), str(bare))
    for name in ("alice", "bob"):
        git(tmp_path, "clone", "-q", str(bare), name)
        member = Member(name, tmp_path / name)
        git(member.root, "checkout", "-q", "-b", name)
        member.ok("vc", "init", "--in-project")
        _curate(member, TOPIC, f"{name} invoices", f"Invoices as {name} knows them", name)
        git(member.root, "push", "-q", "origin", name)
    forge = tmp_path / "forge"
    git(tmp_path, "clone", "-q", str(bare), str(forge))
    git(forge, "merge", "-q", "--no-edit", "origin/alice")
    git(forge, "merge", "-q", "--no-edit", "origin/bob")
    assert git(forge, "ls-files", "--unmerged") == ""
    added = git(forge, "diff", "--name-only", "HEAD~1", "HEAD^2").split()
    brv_files = {".brv/config.yaml", ".brv/.gitignore", ".brv/context-tree/.gitignore",
                 ".brv/context-tree/.gitattributes",
                 *(f".brv/context-tree/{path}" for path in CONTEXTS)}
    assert brv_files <= set(git(forge, "ls-files").split())
    assert not brv_files & set(added)  # both sides wrote the same bytes


def test_standalone_first_commits_on_an_empty_remote(tmp_path: Path) -> None:
    bare = tmp_path / "knowledge.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    alice, bob = make_member(tmp_path, "alice"), make_member(tmp_path, "bob")
    for member in (alice, bob):
        member.ok("vc", "clone", str(bare))
        _curate(member, TOPIC, f"{member.name} invoices", f"Per {member.name}", member.name)
    alice.ok("vc", "push", "-u")
    pulled = bob.ok("vc", "pull", "--allow-unrelated-histories", "--json").json()
    assert pulled["conflicts"] == []
    bob.ok("vc", "push")
    alice.ok("vc", "pull")
    _same_contexts(alice, bob, paths=(*CONTEXTS, ".gitignore", ".gitattributes"))
    assert len(_entries(bob)) == 2
