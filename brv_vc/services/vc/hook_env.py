"""What a running ``brv vc`` command tells the git hooks it starts (environment variables).

Nothing is validated or refreshed twice in one user action: the command did it already, so
the hook it runs (inside ``git commit``, ``git push``, ``git merge``, ``git checkout``) skips
it. A plain git command sets none of these, and its hook does the whole job. Kept free of
imports: the hook fast path (``cli/fast.py``) reads these names before anything else.
"""

# the commit 'brv vc push' checked with refuse_unpushable: its pre-push hook skips that one
PUSH_CHECKED_ENV = "BRV_PUSH_CHECKED"
# the tree 'brv vc commit' validated (git write-tree of the index): pre-commit skips it
COMMIT_CHECKED_ENV = "BRV_COMMIT_CHECKED"
# ... and the index file whose cache-tree names that tree, under a second name beside it
# (a hard link): while git hands the hook that very file ('[ index -ef link ]'), the shim
# skips without asking git for the tree
CHECKED_SUFFIX = ".brv-checked"
# the post-change hooks (comma-separated) the running brv command does itself after git
# returns (pull, merge and checkout run the post-change step in process): they do nothing
REFRESHING_ENV = "BRV_REFRESHING"

# pre-commit leaves this next to the index git commits (GIT_INDEX_FILE), so commit-msg,
# which git runs as a second process, knows there is nothing for it to do without starting
# the vc services: one line (what wrote it), then the archived paths (usually none). One
# rule, the shim's ('[ note -nt index ]') and nothing_to_trail's: the note counts while it
# is newer than the index (nothing restaged since) and names no path.
TRAILERS_SUFFIX = ".brv-trailers"


def note_trailers(index_file: str | None, archived: list[str]) -> None:
    """Records, for the commit-msg hook, the archived deletions the index stages."""
    if not index_file:
        return

    try:
        with open(index_file + TRAILERS_SUFFIX, "w", encoding="utf-8") as handle:
            handle.write("pre-commit\n" + "".join(f"{p}\n" for p in archived))
    except OSError:
        pass  # commit-msg then works it out itself


def nothing_to_trail(index_file: str | None) -> bool:
    """True when pre-commit found no archived deletion in this very index (commit-msg's job).

    The note is used once; an index changed since (a hook that staged more: the index is
    then as new as the note, or newer) or a missing note means "find out". The shim's rule.
    """
    if not index_file:
        return False
    import os

    note = index_file + TRAILERS_SUFFIX
    try:
        with open(note, encoding="utf-8") as handle:
            _, *paths = handle.read().splitlines()
        newer = os.stat(note).st_mtime_ns > os.stat(index_file).st_mtime_ns
        os.unlink(note)
    except (OSError, ValueError):
        return False
    return newer and not any(paths)
