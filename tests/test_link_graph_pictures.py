"""The picture of the links: bounded, deterministic, escaped, linking to the right pages, on real trees."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from brv_vc.errors import NotFoundError
from brv_vc.format.entry import Entry, serialize_entry
from brv_vc.services import link_graph
from brv_vc.services.init import init_project
from brv_vc.tree.project import Project

SVG = "{http://www.w3.org/2000/svg}"


def write(project: Project, rel: str, title: str, related: tuple[str, ...] = ()) -> None:
    target = project.tree / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    stamp = "2026-11-01T00:00:00Z"
    target.write_bytes(serialize_entry(Entry(
        title=title, summary=f"About {title}", tags=(), keywords=(), related=related,
        created_at=stamp, updated_at=stamp, body=f"Text of {title}.\n")))


def make(root: Path, order: int = 1) -> Project:
    """A hub with 60 backlinks, a chain hub -> a -> b -> c, a <script> title, two domains."""
    root.mkdir()
    init_project(root)
    project = Project(root)
    items = [("api/core/hub.md", "Hub", ("api/chain/a.md",))]
    items += [(f"api/spokes/s{i:02d}.md", f"Spoke {i:02d}", ("api/core/hub",)) for i in range(60)]
    items += [
        ("api/chain/a.md", "A", ("api/chain/b.md", "web/pages")),
        ("api/chain/b.md", "B", ("api/chain/c.md",)),
        ("api/chain/c.md", "C", ()),
        ("web/pages/evil.md", "<script>window.pwned=1</script> & \"quotes\"", ("api/chain/a.md",)),
        ("web/pages/lonely.md", "Lonely", ("nowhere/at/all.md",)),
    ]
    for rel, title, related in items[::order]:
        write(project, rel, title, related)
    return project


@pytest.fixture
def tree(tmp_path: Path) -> Project:
    return make(tmp_path / "proj")


def paths(graph: link_graph.Graph) -> list[str]:
    return [node.path for node in graph.nodes]


def test_an_entry_with_sixty_backlinks_draws_forty_nodes_and_counts_the_rest(tree: Project) -> None:
    graph = link_graph.entry_graph(tree, "api/core/hub")
    assert len(graph.nodes) == link_graph.LIMIT
    assert graph.nodes[0].path == "api/core/hub.md"
    assert graph.nodes[0].hop == 0
    # 61 neighbours at one hop (60 spokes + a), 39 drawn; a (most linked) comes first
    assert graph.more >= 61 - 39
    hop1 = [n for n in graph.nodes if n.hop == 1]
    assert hop1[0].path == "api/chain/a.md"
    assert all(n.hop == 1 for n in graph.nodes[1:])  # nearest first: no hop 2 while hop 1 overflows
    assert f"+{graph.more} more" in link_graph.render_svg(graph)


def test_a_small_neighbourhood_reaches_two_hops_and_its_folder(tree: Project) -> None:
    graph = link_graph.entry_graph(tree, "api/chain/b.md", limit=40)
    hops = {n.path: n.hop for n in graph.nodes}
    assert hops["api/chain/b.md"] == 0
    assert hops["api/chain/a.md"] == 1
    assert hops["api/chain/c.md"] == 1
    assert hops["api/core/hub.md"] == 2
    assert hops["web/pages"] == 2
    assert hops["web/pages/evil.md"] == 2
    assert hops["api/chain"] == 1  # the entry's folder, its way to the folder's picture
    edges = {(e.source, e.target, e.kind) for e in graph.edges}
    assert ("api/chain/a.md", "api/chain/b.md", "relation") in edges
    assert ("api/chain/b.md", "api/chain/c.md", "relation") in edges
    assert ("web/pages/evil.md", "api/chain/a.md", "relation") in edges
    assert all(e.source in hops and e.target in hops for e in graph.edges)


def test_the_same_tree_written_in_another_order_gives_the_same_svg(tmp_path: Path) -> None:
    one = make(tmp_path / "one", order=1)
    two = make(tmp_path / "two", order=-1)
    for draw in (lambda p: link_graph.entry_graph(p, "api/chain/a.md"),
                 lambda p: link_graph.entry_graph(p, "api/core/hub.md"),
                 lambda p: link_graph.folder_graph(p, "api"),
                 lambda p: link_graph.folder_graph(p, "")):
        first, second = link_graph.render_svg(draw(one)), link_graph.render_svg(draw(two))
        assert first == second
        assert first == link_graph.render_svg(draw(one))


def test_a_script_title_is_text_in_a_well_formed_svg(tree: Project) -> None:
    svg = link_graph.render_svg(link_graph.entry_graph(tree, "web/pages/evil.md"))
    assert "<script" not in svg
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in svg
    root = ET.fromstring(svg)  # well-formed XML: nothing broke out of a text or an attribute
    assert root.findall(f".//{SVG}script") == []
    labels = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "<script>window.pwned=1" in labels  # shown as the title's own characters, escaped once


def test_every_node_links_to_its_entry_page_or_its_folder_picture(tree: Project) -> None:
    graph = link_graph.entry_graph(tree, "api/chain/a.md")
    root = ET.fromstring(link_graph.render_svg(graph))
    links = {a.get("data-path"): a.get("href") for a in root.iter(f"{SVG}a")}
    assert links == {n.path: link_graph.default_link(n) for n in graph.nodes}
    assert links["api/chain/b.md"] == "/entry?path=api%2Fchain%2Fb.md"
    assert links["web/pages"] == "/graph?domain=web%2Fpages"
    custom = link_graph.render_svg(graph, link=lambda n: f"/x?p={n.path}&t=1")
    assert 'href="/x?p=api/chain/b.md&amp;t=1"' in custom


def test_a_folder_picture_is_bounded_and_counts_links_to_other_folders(tree: Project) -> None:
    graph = link_graph.folder_graph(tree, "api", limit=20)
    assert len(graph.nodes) == 20
    assert graph.nodes[0].path == "api"
    assert graph.more > 0
    entries = [n for n in graph.nodes if n.kind == "entry"]
    assert entries[0].path == "api/core/hub.md"  # the most linked first
    cross = {e.target: e.weight for e in graph.edges if e.kind == "cross"}
    assert cross == {"web": 2}  # a -> web/pages, evil -> a


def test_the_tree_picture_shows_domains_and_their_links(tree: Project) -> None:
    graph = link_graph.folder_graph(tree, "")
    assert graph.scope == "tree"
    assert sorted(paths(graph)[1:]) == ["api", "web"]
    assert {(e.source, e.target, e.weight) for e in graph.edges if e.kind == "cross"} == {("api", "web", 2)}


def test_unknown_entry_or_folder_says_so(tree: Project) -> None:
    with pytest.raises(NotFoundError, match="no entry at 'api/none'"):
        link_graph.entry_graph(tree, "api/none")
    with pytest.raises(NotFoundError, match="no folder 'nope'"):
        link_graph.folder_graph(tree, "nope")


def test_nodes_do_not_overlap_on_a_full_ring(tree: Project) -> None:
    graph = link_graph.entry_graph(tree, "api/core/hub")
    ring = [n for n in graph.nodes if n.hop == 1]
    gaps = [((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 for a in ring for b in ring if a is not b]
    assert min(gaps) >= 15


def test_a_new_link_shows_in_the_next_picture_and_an_unchanged_tree_draws_the_same(
    tree: Project,
) -> None:
    first = link_graph.entry_graph(tree, "api/chain/c.md")
    assert link_graph.entry_graph(tree, "api/chain/c.md") == first
    assert "web/pages/new.md" not in paths(first)
    write(tree, "web/pages/new.md", "New", ("api/chain/c.md",))
    again = link_graph.entry_graph(tree, "api/chain/c.md")
    assert "web/pages/new.md" in paths(again)
    before = link_graph.folder_graph(tree, "")
    write(tree, "web/pages/more.md", "More", ("api/core/hub.md",))
    after = link_graph.folder_graph(tree, "")
    assert [e.weight for e in after.edges if e.kind == "cross"] == [
        e.weight + 1 for e in before.edges if e.kind == "cross"]


def test_a_picture_of_one_node_is_refused(tree: Project) -> None:
    from brv_vc.errors import UsageError

    with pytest.raises(UsageError, match="at least 2 nodes"):
        link_graph.entry_graph(tree, "api/chain/c.md", limit=1)
