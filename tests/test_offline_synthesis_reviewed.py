"""The offline synthesis rests on what entries share, names them, and always waits for review."""

from __future__ import annotations

from dream_support import NOW, add

from brv_vc.services import dream, review
from brv_vc.services.dream import synthesize
from brv_vc.tree.project import Project


def _created(result: dream.DreamResult) -> list[dict[str, object]]:
    return [op for op in result.operations
            if op["operation"] == "synthesize" and op.get("status") == "applied"]


def test_boilerplate_makes_no_synthesis_and_review_holds_every_one(project: Project) -> None:
    # the tree: four entries in four domains, nothing really shared
    add(project, "api/pagination", "Cursor pagination", "List endpoints page with cursors.")
    add(project, "auth/jwt", "Token rotation", "Refresh tokens rotate on every use.")
    add(project, "infra/deploy", "Blue green deploys", "Deploys switch the balancer at once.")
    add(project, "security/keys", "Key storage", "Signing keys live in the vault.")
    review.set_enabled(project, True)
    made = _created(dream.dream(project, NOW, force=True))
    assert made == [], [op["title"] for op in made]  # "Key across ..." came from _index.md


def test_shared_tags_make_a_named_reviewed_synthesis(project: Project, brv) -> None:
    add(project, "backend/db", "Connection pooling", "Pool size is 20 per pod.",
        tags=["postgres"])
    add(project, "ops/backups", "Nightly dumps", "pg_dump runs at 02:00 UTC.", tags=["postgres"])
    add(project, "billing/ledger", "Ledger tables", "The ledger is append-only.",
        tags=["postgres"])
    add(project, "auth/jwt", "Token rotation", "Refresh tokens rotate on every use.")
    review.set_enabled(project, True)
    made = _created(dream.dream(project, NOW, force=True))
    assert [op["title"] for op in made] == ["Postgres in backend, billing and ops"]
    op = made[0]
    assert op["needsReview"] is True
    assert float(op["confidence"]) < 0.7
    assert set(op["sources"]) == {"backend/db/connection_pooling.md",
                                  "ops/backups/nightly_dumps.md",
                                  "billing/ledger/ledger_tables.md"}
    text = (project.tree / str(op["path"])).read_text()
    assert 'related: ["backend/db/connection_pooling.md"' in text
    assert "Nightly dumps (@ops/backups/nightly_dumps.md): pg_dump runs at 02:00 UTC." in text
    pending = brv("review", "pending", "--json", cwd=project.root).json()
    assert [e["status"] for e in pending["entries"]] == ["pending"]  # not approved


def test_generated_context_and_summaries_never_feed_it(project: Project) -> None:
    for domain in ("alpha", "beta", "gamma"):
        add(project, f"{domain}/things", f"{domain} note", f"Only about {domain}.")
    assert synthesize.detect(project) == []  # they share only the generated text
