"""What a running ``brv vc`` command tells the git hooks it starts (environment variables).

Nothing is validated or refreshed twice in one user action: the command did it already, so
the hook it runs (inside ``git commit``, ``git push``, ``git merge``, ``git checkout``) skips
it. A plain git command sets none of these, and its hook does the whole job. Kept free of
imports but ``record`` and ``vc/hook_missing``: the hook fast path (``cli/fast.py``) reads these names before anything
else.
"""

from __future__ import annotations

from brv_vc.record import NamedTuple
from brv_vc.vc import hook_missing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# the commit 'brv vc push' checked with refuse_unpushable: its pre-push hook skips that one
PUSH_CHECKED_ENV = "BRV_PUSH_CHECKED"
# the tree 'brv vc commit' validated (git write-tree of the index): pre-commit skips it
COMMIT_CHECKED_ENV = "BRV_COMMIT_CHECKED"
# ... and the index file whose cache-tree names that tree, under a second name beside it
# (a hard link): while git hands the hook that very file ('[ index -ef link ]'), the shim
# skips without asking git for the tree
CHECKED_SUFFIX = ".brv-checked"
# the post-change hooks (comma-separated) the running brv command does itself after git
# returns (pull, merge and checkout run the post-change step in process): they do nothing.
# Named in vc/hook_missing.py, which renders the launchers' shell spelling of done_by_command
REFRESHING_ENV = hook_missing.REFRESHING_ENV
# the hooks a run of each hook is nested in ("<pre-commit><post-checkout>"): a hook started
# from inside itself (a loop between hook managers) does nothing. Children inherit it.
ACTIVE_ENV = "BRV_HOOK_ACTIVE"
# the shim's own path ($0), set by the shim for the one Python it starts: the legacy hook
# beside it (<name>.legacy) runs first, when the shim has its own name
SCRIPT_ENV = "BRV_HOOK_SCRIPT"
# the hooks run_hook knows: git's (hooks_install.HOOK_NAMES) and the framework's "refresh"
HOOKS = ("pre-commit", "commit-msg", "post-merge", "post-checkout", "post-rewrite", "pre-push",
         "refresh")
# the hooks whose failure refuses what git is doing; the others fail open (one home, shared
# with the shim's render: vc/hook_missing.py, an import-free module)
BLOCKING = hook_missing.BLOCKING


class HookEnvironment(NamedTuple):
    """What a hook reads from its environment, read once at the edge (``cli/hook_run.py``)."""

    refreshing: str | None = None  # REFRESHING_ENV
    index_file: str | None = None  # GIT_INDEX_FILE, as git exported it
    include_pending: bool = False  # BRV_INCLUDE_PENDING=1
    push_checked: str | None = None  # PUSH_CHECKED_ENV
    commit_checked: str | None = None  # COMMIT_CHECKED_ENV
    to_ref: str | None = None  # PRE_COMMIT_TO_REF: the framework's pushed commit
    active: str = ""  # ACTIVE_ENV
    script: str | None = None  # SCRIPT_ENV
    framework: tuple[str, tuple[str, ...]] = ("refresh", ())  # framework_invocation


def read(env: Mapping[str, str]) -> HookEnvironment:
    """Reads a hook's environment (``environment.current()`` at the edge) into one value."""
    return HookEnvironment(
        env.get(REFRESHING_ENV), env.get("GIT_INDEX_FILE") or None,
        env.get("BRV_INCLUDE_PENDING") == "1", env.get(PUSH_CHECKED_ENV),
        env.get(COMMIT_CHECKED_ENV), env.get("PRE_COMMIT_TO_REF") or None,
        env.get(ACTIVE_ENV, ""), env.get(SCRIPT_ENV) or None, framework_invocation(env))


def started_inside_itself(name: str, active: str) -> bool:
    """True when hook ``name`` runs inside a run of itself (``active``: ACTIVE_ENV)."""
    return f"<{name}>" in active




def done_by_command(name: str, refreshing: str | None) -> bool:
    """True when the running brv command does hook ``name``'s work itself: the hook skips.

    ``refreshing``: the value of :data:`REFRESHING_ENV` (None or "" when unset). The one
    rule: ``run_hook`` asks it for every caller (the shims, the pre-commit framework's
    ``refresh`` once mapped to the hook it stands for, ``brv hook-impl``), and both
    launchers' shell spelling (``hook_missing.done_by_command``) is checked against it by tests.
    """
    return refreshing is not None and name in refreshing.split(",")


def framework_invocation(env: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
    """Maps the pre-commit framework's environment to the git hook it stands for.

    The framework runs one ``brv-refresh`` entry for three stages and passes git's hook
    arguments as ``PRE_COMMIT_*`` variables instead of arguments.
    """
    if env.get("PRE_COMMIT_CHECKOUT_TYPE"):
        return "post-checkout", (env.get("PRE_COMMIT_FROM_REF", ""),
                                 env.get("PRE_COMMIT_TO_REF", ""), env["PRE_COMMIT_CHECKOUT_TYPE"])
    if env.get("PRE_COMMIT_IS_SQUASH_MERGE"):
        return "post-merge", (env["PRE_COMMIT_IS_SQUASH_MERGE"],)
    if env.get("PRE_COMMIT_REWRITE_COMMAND"):
        return "post-rewrite", (env["PRE_COMMIT_REWRITE_COMMAND"],)
    return "refresh", ()

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
