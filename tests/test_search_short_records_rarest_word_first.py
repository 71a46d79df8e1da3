"""Short records (a title and one line, a team's one-line facts): the record holding the
question's rarest word goes before a shorter one holding only a common word.

With issue 26's full length normalisation (k1 2, b 1 on the candidates) a record half the
average length counted its common word twice as much as a record 1.5x the average counted
its rare one, and a four-word fact about the database went first; brv's defaults, chosen
leave-one-set-out over sets of every shape (bench/tune_ranking.py, issue 37), are FTS5's own
k1 1.2 and b 0.75. The fixture is small and synthetic: 38 facts of 3-6 words, four of them
about the database, and one longer fact naming the replica (fails on 7cc6393).
"""

from __future__ import annotations

from datetime import UTC, datetime

from retrieval_util import write_entry

from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project

NOW = datetime(2026, 1, 20, tzinfo=UTC)

FILLER = [
    "Deploys freeze on Fridays", "Lunch orders close at eleven", "Standup starts at nine",
    "Invoices go out monthly", "Badges open every door", "Printers live on floor two",
    "Holidays follow the local calendar", "Laptops renew every three years",
    "Visitors sign in downstairs", "Parking passes expire in June", "Coffee beans come weekly",
    "Payroll runs on the 25th", "Expenses need a receipt", "Interns start in July",
    "The wiki moved last spring", "Retros happen every other week", "Plants get water Mondays",
    "Bikes stay in the basement", "Meetings end five minutes early", "Demos run on Thursdays",
    "Fire drills come twice yearly", "Guests get a day pass", "Phones charge at the desk",
    "Snacks restock on Tuesdays", "Keys stay with reception", "Mail arrives after noon",
    "Lockers clear out on Fridays", "The gym closes at eight", "Slides use the team template",
    "Trains leave every ten minutes", "Chairs are ordered through facilities",
    "Headphones are in the cupboard", "Whiteboards get wiped nightly", "Taxis need approval",
]
DATABASE = ["Database backups run nightly", "Database owner is Priya",
            "Database passwords rotate quarterly", "Database alerts page on-call"]
REPLICA = ("The staging replica lives in the second region, is rebuilt from the Sunday "
           "snapshot and answers read-only reports for the finance team every morning")


def _records(project: Project) -> None:
    for i, line in enumerate(FILLER):
        write_entry(project, f"facts/office/fact_{i}.md", f"Fact {i}", line)
    for i, line in enumerate(DATABASE):
        write_entry(project, f"facts/data/db_{i}.md", f"Data fact {i}", line)
    write_entry(project, "facts/data/staging.md", "Staging", REPLICA)


def test_the_record_holding_the_rarest_word_goes_first(project: Project) -> None:
    _records(project)
    found = search_tree(project, "database replica", now=NOW, record=False)
    paths = [h.path for h in found.results]
    assert paths[0] == "facts/data/staging.md", paths
