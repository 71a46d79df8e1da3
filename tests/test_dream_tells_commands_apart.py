"""A section about one command is never merged into, nor made an update of, another's.

brv's own CLI reference, imported one section a command (issue 37): ``brv curate update``
and ``brv curate upsert`` share every option and most words, and a dream merged them; ``brv
hooks status`` was read as ``brv hooks`` revisited (a TEMPORAL_UPDATE: one title holds the
other). A title that names the command its code runs names the section's subject: two
commands are two subjects, a subcommand its own. The same command curated twice in other
words is still one subject.
"""

from __future__ import annotations

from dream_support import NOW, add

from brv_vc.format.entry import Entry
from brv_vc.services import dream
from brv_vc.services.dream.subject import command

OPTIONS = """Options:
  --title TEXT     Entry title (the file is named after it).
  --content TEXT   Markdown content ('## ' sections make it the whole body).
  --file FILE|-    Read the content from FILE.
  --summary TEXT   One-line summary.
  --tags TEXT      Tags, comma-separated (repeatable).
  --keywords TEXT  Search keywords, comma-separated (repeatable).
  --related TEXT   Related entry paths domain/topic/entry.md, comma-separated
                   (repeatable).
  --reason TEXT    Why (kept in the audit log).
  --dry-run        Check and report what would change; write nothing.
  --json           Print the result as JSON.
  -h, --help       Show this message and exit."""
UPDATE = f"""```
Usage: brv curate update [OPTIONS] ENTRY

  Update an existing entry (ENTRY_PATH, or a folder with --title); unmentioned
  sections stay.

  Example:
    brv curate update auth/jwt/token_rotation.md --content "Rotation is now weekly."

{OPTIONS}
```"""
UPSERT = f"""```
Usage: brv curate upsert [OPTIONS] PATH

  Add the entry if it is new, update it if it exists.

  Example:
    brv curate upsert auth/jwt --title "Token rotation" --content "Single-use tokens."

{OPTIONS}
```"""
HOOKS = """```
Usage: brv hooks [OPTIONS] COMMAND [ARGS]...

  Install brv's git hooks (validate on commit and push, refresh after
  merge/checkout/rebase).

  Example:
    brv hooks install
    brv hooks status --json

Options:
  -h, --help  Show this message and exit.

Commands:
  install    Install or upgrade the hooks.
  status     Show which hooks are installed, outdated, foreign or missing.
```"""
HOOKS_STATUS = """```
Usage: brv hooks status [OPTIONS]

  Show which hooks are installed, outdated, foreign or missing, and whether
  brv's part runs.

  Example:
    brv hooks status --json

Options:
  --json      Print the result as JSON.
  -h, --help  Show this message and exit.
```"""

# the rest of the reference, as imported beside them: other commands and other pages
OTHERS = [
    ("docs/cli", "brv curate delete", """```
Usage: brv curate delete [OPTIONS] ENTRY

  Delete an entry; the entries that link to it lose the link.

  Example:
    brv curate delete auth/jwt/token_rotation.md

Options:
  --reason TEXT    Why (kept in the audit log).
  --dry-run        Check and report what would change; write nothing.
  --json           Print the result as JSON.
  -h, --help       Show this message and exit.
```"""),
    ("docs/cli", "brv hooks install", """```
Usage: brv hooks install [OPTIONS]

  Install or upgrade the pre-commit, commit-msg, post-merge, post-checkout,
  post-rewrite and pre-push hooks.

  Example:
    brv hooks install --integrate

Options:
  --integrate, --yes  Write brv's part into lefthook's or the pre-commit
                      framework's config file without asking (idempotent).
  --json              Print the result as JSON.
  -h, --help          Show this message and exit.
```"""),
    ("docs/cli", "brv query", """```
Usage: brv query [OPTIONS] QUESTION

  Answer a question from the context tree (search, then the entries read).

  Example:
    brv query "how do tokens rotate?" --json

Options:
  --limit INTEGER  How many entries to read.
  --json           Print the result as JSON.
  -h, --help       Show this message and exit.
```"""),
    ("docs/hooks", "Hook managers", "Under husky, one guarded line goes into each hook file; "
     "lefthook and the pre-commit framework get brv's part in their own config, and a "
     "team's core.hooksPath is never rewritten."),
    ("docs/dreaming", "What a dream does", "A dream consolidates alike entries, writes "
     "syntheses of patterns across domains and prunes stale entries; with review on, its "
     "changes wait for brv review."),
    ("docs/search", "Ranking", "Search ranks entries with BM25 over the title, summary, tags "
     "and body, then boosts entries read often."),
]




def _others(project) -> None:
    for folder, title, text in OTHERS:
        add(project, folder, title, text)
    # the reference's words are every page's words: brv's docs repeat a command's help
    # where they explain it, so no word of these sections names one of them alone
    for page in ("docs/curate", "docs/hooks", "docs/quickstart"):
        add(project, page, "Commands", "\n\n".join((UPDATE, UPSERT, HOOKS, HOOKS_STATUS)))


def _changes(result: dream.DreamResult) -> list[dict[str, object]]:
    """The MERGEs and TEMPORAL_UPDATEs between the reference's sections."""
    return [op for op in result.operations if op["operation"] == "consolidate"
            and op["action"] in ("MERGE", "TEMPORAL_UPDATE")
            and all(str(p).startswith("docs/cli/") for p in
                    [op.get("target") or op["file"], *op.get("sources", [op.get("newer")])])]


def test_two_commands_that_differ_by_one_word_are_not_merged(project) -> None:
    _others(project)
    update = add(project, "docs/cli", "brv curate update", UPDATE)
    upsert = add(project, "docs/cli", "brv curate upsert", UPSERT)
    result = dream.dream(project, NOW, force=True)
    assert _changes(result) == []
    assert (project.tree / update).is_file()
    assert (project.tree / upsert).is_file()


def test_a_subcommand_is_not_its_parent_revisited(project) -> None:
    _others(project)
    add(project, "docs/cli", "brv hooks", HOOKS)
    add(project, "docs/cli", "brv hooks status", HOOKS_STATUS)
    assert _changes(dream.dream(project, NOW, force=True)) == []


def test_one_command_said_twice_is_still_merged(project) -> None:
    _others(project)
    first = add(project, "docs/cli", "brv curate update", UPDATE)
    again = add(project, "docs/cli", "Notes on brv curate update", UPDATE)
    merged = [op for op in _changes(dream.dream(project, NOW, force=True))
              if op["action"] == "MERGE"]
    assert [(op["target"], op["sources"]) for op in merged] == [(first, [again])]


def test_the_command_is_the_longest_run_of_title_words_the_code_says() -> None:
    def named(title: str, body: str) -> str:
        return command(Entry(title=title, body=body))

    assert named("Notes on brv hooks status", HOOKS_STATUS) == "brv hooks status"
    assert named("brv hooks", HOOKS) == "brv hooks"  # its code names status too: not its title
    assert named("Installation", "```\npip install installation\n```") == ""  # one word
    assert named("Token rotation", "Tokens rotate weekly.") == ""  # no code
