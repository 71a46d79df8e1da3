"""A dream on a tree nothing changed in since the last dream proposes nothing (issue 37).

A team's notes in four domains share five tags (a store, a queue, a payment provider...),
more patterns than one dream writes (three). The first dream writes the best three and
weighs the rest; a second dream right after, on the unchanged tree, found the next three
"on other words". Now it proposes nothing at all, while a changed entry still brings its
patterns back. And an entry kept by prune (others link to it) although its importance
decayed was kept again by every dream (twenty KEEPs a dream at 25,000 entries): now once.
Nor does prune take the next twenty of a backlog on a tree nothing changed in (at 100,000
generated entries, all decayed, every dream right after kept or archived twenty more): it
weighs again once an entry changed, or a day later.
"""

from __future__ import annotations

import os
import time
from datetime import timedelta

from dream_support import NOW, add, age

from brv_vc.lifecycle import scoring, sidecar
from brv_vc.services import dream
from brv_vc.services.dream import prune, synthesize
from brv_vc.tree.statedb import open_state

NOTES = [  # (folder, title, text, tags)
    ("api/orders", "Order writes", "Orders are written in one transaction with their lines.",
     ["postgres"]),
    ("ops/backups", "Nightly dumps", "pg_dump runs at 02:00 UTC and keeps 14 days.",
     ["postgres"]),
    ("billing/ledger", "Ledger tables", "The ledger is append-only; corrections are new rows.",
     ["postgres"]),
    ("api/sessions", "Session store", "Sessions live 30 minutes and slide on each request.",
     ["redis"]),
    ("ops/alerts", "Memory alerts", "An alert fires when the cache uses 80% of maxmemory.",
     ["redis"]),
    ("web/cart", "Cart cache", "The cart page caches prices for five minutes per user.",
     ["redis"]),
    ("api/events", "Order events", "Each order change is published once the commit lands.",
     ["kafka"]),
    ("ops/retention", "Topic retention", "Topics keep seven days; compaction on keyed ones.",
     ["kafka"]),
    ("billing/invoices", "Invoice events", "Invoices are built from the order events stream.",
     ["kafka"]),
    ("billing/charges", "Card charges", "Charges use idempotency keys made from the order id.",
     ["stripe"]),
    ("web/checkout", "Checkout form", "The checkout page mounts the hosted card element.",
     ["stripe"]),
    ("ops/webhooks", "Webhook secrets", "Signing secrets rotate each quarter, old kept a day.",
     ["stripe"]),
    ("api/login", "Login flow", "Login redirects to the identity provider with PKCE.",
     ["oauth"]),
    ("web/callback", "Callback page", "The callback page trades the code for tokens.",
     ["oauth"]),
    ("ops/clients", "Client registry", "Each environment registers its own client id.",
     ["oauth"]),
    ("api/paging", "Cursor paging", "List endpoints page with opaque cursors.", []),
    ("web/fonts", "Font loading", "Fonts load with swap so text shows at once.", []),
    ("ops/deploys", "Blue green deploys", "Deploys switch the balancer at once.", []),
    ("billing/tax", "Tax rates", "Rates come from the tax table of the customer's country.",
     []),
    ("web/images", "Image sizes", "Images are served in three widths with srcset.", []),
]


def _proposed(result: dream.DreamResult) -> list[dict[str, object]]:
    return [op for op in result.operations if op["action"] != "SKIP"]


def _tree(project):
    return {folder: add(project, folder, title, text, tags=tags)
            for folder, title, text, tags in NOTES}


def test_a_second_dream_on_the_unchanged_tree_proposes_nothing(project) -> None:
    _tree(project)
    first = dream.dream(project, NOW, force=True)
    made = [op for op in first.operations if op["operation"] == "synthesize"]
    assert len(made) == synthesize.MAX_SYNTHESES  # more patterns than one dream writes
    again = dream.dream(project, NOW + timedelta(minutes=5), force=True)
    assert _proposed(again) == []
    assert dream.dream(project, NOW + timedelta(minutes=10), force=True).operations == ()


def test_a_changed_entry_brings_its_patterns_back(project) -> None:
    paths = _tree(project)
    first = dream.dream(project, NOW, force=True)
    cited = {p for op in first.operations if op["operation"] == "synthesize"
             for p in op["sources"]}
    waiting = next(p for f, p in paths.items() if p not in cited
                   and any(f == n[0] and n[3] for n in NOTES))
    later = time.time() + 2  # after the first dream ended, as an edit would be
    os.utime(project.tree / waiting, (later, later))
    again = dream.dream(project, NOW + timedelta(minutes=5), force=True)
    made = [op for op in _proposed(again) if op["operation"] == "synthesize"]
    assert made
    assert all(waiting in op["sources"] for op in made)


def test_a_kept_entry_whose_importance_decayed_is_kept_once(project) -> None:
    old = add(project, "notes/old", "Fax setup", "Fax machines need a dial tone and paper.")
    add(project, "notes/misc", "Reading list", "See the fax setup.", related=[old])
    state = open_state(project)
    try:  # nobody searched it for months: its importance decayed under the archive line
        sidecar.put_many(state, {old: scoring.Signals(importance=20.0, updated_at=1.0,
                                                      scored_at=NOW.timestamp())})
    finally:
        state.close()
    first = dream.dream(project, NOW, force=True)
    assert [op["file"] for op in first.operations if op["action"] == "KEEP"] == [old]
    again = dream.dream(project, NOW + timedelta(minutes=5), force=True)
    assert _proposed(again) == []


SUBJECTS = ["anchovy", "bassoon", "cactus", "dolmen", "egret", "fjord", "gazebo", "hamlet",
            "igloo", "jasper", "kayak", "lagoon", "mantis", "nectar", "oboe", "parsnip",
            "quartz", "raven", "saffron", "tundra", "umbra", "velvet", "walrus", "xylem",
            "yodel"]


def _stale_backlog(project) -> list[str]:
    """25 unlinked entries sharing no word, each alone in its folder, untouched for 200 days."""
    paths = []
    for word in SUBJECTS:
        rel = add(project, f"{word}/{word}", word.title(),
                  " ".join(f"{word}{n}" for n in range(8)) + ".")
        age(project, rel, 200)
        paths.append(rel)
    return paths


def _pruned(result: dream.DreamResult) -> list[str]:
    return [op["file"] for op in result.operations if op["operation"] == "prune"]


def test_a_prune_backlog_waits_for_a_change_or_a_day(project) -> None:
    paths = _stale_backlog(project)
    first = dream.dream(project, NOW, force=True)
    assert len(_pruned(first)) == prune.MAX_CANDIDATES  # the stalest 20 of 25
    # right after, nothing changed: the 5 left were weighed by that pass (before: archived)
    again = dream.dream(project, NOW + timedelta(minutes=5), force=True)
    assert _proposed(again) == []
    # a day later by the dream's clock, staleness alone makes prune weigh again
    later = dream.dream(project, NOW + timedelta(days=2), force=True)
    assert sorted(_pruned(later)) == sorted(set(paths) - set(_pruned(first)))


def test_a_modified_entry_makes_prune_weigh_again(project) -> None:
    paths = _stale_backlog(project)
    first = dream.dream(project, NOW, force=True)
    left = sorted(set(paths) - set(_pruned(first)))
    edited = left[0]
    later = time.time() + 2  # after the first dream ended, as an edit would be
    os.utime(project.tree / edited, (later, later))
    again = dream.dream(project, NOW + timedelta(minutes=5), force=True)
    assert sorted(_pruned(again)) == left[1:]  # the edited one is fresh now
