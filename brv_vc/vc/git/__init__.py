"""git, the one package that knows its commands, formats and files (DESIGN.md "Layers").

Its modules, one seam each:

- ``process``: the one place git is started (environment, refused transports, NUL refusal);
- ``spawn``: git started without ``subprocess`` (``os.posix_spawnp``), bytes in and out;
- ``prefetch``: the early ``git status`` that ``brv vc status`` adopts;
- ``worktree``: git run in a work tree, the door ``KnowledgeRepo.git`` forwards to (the
  borrowed identity of a committing command, one failure wording);
- ``errors``: what a failure means and brv's words for it (``translate``);
- ``refs``: names git resolves (top folder, git paths, commits, config, ancestry);
- ``diff``: what changed, read from ``git diff --raw -z``;
- ``blobs``: blobs read where cheapest (work tree, loose object, ``cat-file``);
- ``files``: git's own files read without a process, in the plain case only;
- ``cache_tree``: the tree an index file will commit, read from its cache-tree;
- ``stale_locks``: git's lock files, and whether a git process still holds them;
- ``objects``: objects read in process through dulwich;
- ``listing``: the files of a commit, the work tree's changes, what is ignored;
- ``log``: the log formats and the walks that read them;
- ``raw``: the one reader of ``--raw`` records (log and diff);
- ``symlinks``: the symlinks git stores (mode 120000);
- ``branch_names``: the branch-name rule, asked of git;
- ``conflict_grep``: the one ``git grep`` for conflict blocks;
- ``stage``: the index, and the actions that stage, unstage and rebuild its entries;
- ``commit``: the commits brv makes;
- ``merge``: merging, its bases and its end;
- ``remote``: repositories and remotes (init, clone, fetch, push, remote tracking refs);
- ``branch``: branches (switch, create, delete, upstream, list).

``stage``, ``commit``, ``merge``, ``remote`` and ``branch`` act in a ``process.Worktree``
(``vc/repo.KnowledgeRepo``: its ``git`` borrows the project's identity for a commit); they
are modules to import (``from brv_vc.vc.git import stage``), not names of this package.

Every public name is importable from ``brv_vc.vc.git``; a name's module is imported on first
use, so ``brv vc status`` (which prefetches git status before the CLI is imported: only
``process``) loads no more than it did as one module.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.vc.git.blobs import _loose_blobs as _loose_blobs
    from brv_vc.vc.git.blobs import blobs_at as blobs_at
    from brv_vc.vc.git.blobs import changed_blobs as changed_blobs
    from brv_vc.vc.git.blobs import read_blobs as read_blobs
    from brv_vc.vc.git.blobs import worktree_blobs as worktree_blobs
    from brv_vc.vc.git.diff import NULL_SHA as NULL_SHA
    from brv_vc.vc.git.diff import changed_between as changed_between
    from brv_vc.vc.git.diff import changed_entries as changed_entries
    from brv_vc.vc.git.diff import compare as compare
    from brv_vc.vc.git.diff import differing_from as differing_from
    from brv_vc.vc.git.diff import staged_entries as staged_entries
    from brv_vc.vc.git.diff import staged_files as staged_files
    from brv_vc.vc.git.diff import staged_moves as staged_moves
    from brv_vc.vc.git.diff import unrenamed as unrenamed
    from brv_vc.vc.git.errors import IDENTITY_HINT as IDENTITY_HINT
    from brv_vc.vc.git.errors import failure_kind as failure_kind
    from brv_vc.vc.git.errors import refuse_transport as refuse_transport
    from brv_vc.vc.git.errors import translate as translate
    from brv_vc.vc.git.errors import transport_refusal as transport_refusal
    from brv_vc.vc.git.files import _local_identity as _local_identity
    from brv_vc.vc.git.files import loose_head as loose_head
    from brv_vc.vc.git.files import object_id as object_id
    from brv_vc.vc.git.files import plain_top as plain_top
    from brv_vc.vc.git.files import read_ref as read_ref
    from brv_vc.vc.git.files import read_whereabouts as read_whereabouts
    from brv_vc.vc.git.listing import ignored_paths as ignored_paths
    from brv_vc.vc.git.listing import is_tracked as is_tracked
    from brv_vc.vc.git.listing import staged_deletions as staged_deletions
    from brv_vc.vc.git.listing import tracked as tracked
    from brv_vc.vc.git.listing import tree_blobs as tree_blobs
    from brv_vc.vc.git.listing import tree_paths as tree_paths
    from brv_vc.vc.git.listing import work_changes as work_changes
    from brv_vc.vc.git.listing import write_tree as write_tree
    from brv_vc.vc.git.log import ENTRY_FORMAT as ENTRY_FORMAT
    from brv_vc.vc.git.log import HISTORY_FORMAT as HISTORY_FORMAT
    from brv_vc.vc.git.log import LIST_FORMAT as LIST_FORMAT
    from brv_vc.vc.git.log import TOUCH_FORMAT as TOUCH_FORMAT
    from brv_vc.vc.git.log import boundary_walk as boundary_walk
    from brv_vc.vc.git.log import commit_count as commit_count
    from brv_vc.vc.git.log import commit_time as commit_time
    from brv_vc.vc.git.log import had_path as had_path
    from brv_vc.vc.git.log import head_subject as head_subject
    from brv_vc.vc.git.log import history as history
    from brv_vc.vc.git.log import last_change as last_change
    from brv_vc.vc.git.log import last_touches as last_touches
    from brv_vc.vc.git.log import messages_with as messages_with
    from brv_vc.vc.git.log import newest as newest
    from brv_vc.vc.git.log import path_commits as path_commits
    from brv_vc.vc.git.log import touches as touches
    from brv_vc.vc.git.process import REFUSED_TRANSPORTS as REFUSED_TRANSPORTS
    from brv_vc.vc.git.process import Completed as Completed
    from brv_vc.vc.git.process import Proc as Proc
    from brv_vc.vc.git.process import Running as Running
    from brv_vc.vc.git.process import _git_bytes as _git_bytes
    from brv_vc.vc.git.process import merge_file as merge_file
    from brv_vc.vc.git.process import no_git_env as no_git_env
    from brv_vc.vc.git.process import refused_transport as refused_transport
    from brv_vc.vc.git.process import run as run
    from brv_vc.vc.git.process import start as start
    from brv_vc.vc.git.process import stream as stream
    from brv_vc.vc.git.refs import branch_name as branch_name
    from brv_vc.vc.git.refs import commit_of as commit_of
    from brv_vc.vc.git.refs import commits_of as commits_of
    from brv_vc.vc.git.refs import config_value as config_value
    from brv_vc.vc.git.refs import config_values as config_values
    from brv_vc.vc.git.refs import empty_tree as empty_tree
    from brv_vc.vc.git.refs import file_at as file_at
    from brv_vc.vc.git.refs import git_dirs as git_dirs
    from brv_vc.vc.git.refs import git_path as git_path
    from brv_vc.vc.git.refs import is_ancestor as is_ancestor
    from brv_vc.vc.git.refs import is_shallow as is_shallow
    from brv_vc.vc.git.refs import same_at as same_at
    from brv_vc.vc.git.refs import set_config as set_config
    from brv_vc.vc.git.refs import toplevel as toplevel
    from brv_vc.vc.git.refs import upstream_of_head as upstream_of_head
    from brv_vc.vc.git.refs import whereabouts as whereabouts
    from brv_vc.vc.git.worktree import COMMITTING as COMMITTING
    from brv_vc.vc.git.worktree import in_worktree as in_worktree
    from brv_vc.vc.git.worktree import ok_in_worktree as ok_in_worktree

# each public name's module
_MODULES = {
    "process": ("no_git_env", "run", "merge_file", "Completed", "Proc", "Running", "start",
        "REFUSED_TRANSPORTS", "refused_transport", "stream", "_git_bytes"),
    "errors": ("IDENTITY_HINT", "failure_kind", "translate", "transport_refusal",
        "refuse_transport"),
    "refs": ("toplevel", "git_path", "commits_of", "config_value", "commit_of",
        "is_shallow", "is_ancestor", "empty_tree", "config_values", "set_config", "file_at",
        "same_at", "upstream_of_head", "branch_name", "git_dirs", "whereabouts"),
    "diff": ("NULL_SHA", "changed_between", "staged_files", "staged_entries", "staged_moves",
        "unrenamed", "changed_entries", "compare", "differing_from"),
    "blobs": ("read_blobs", "changed_blobs", "worktree_blobs", "_loose_blobs", "blobs_at"),
    "files": ("object_id", "loose_head", "plain_top", "read_whereabouts", "read_ref",
        "_local_identity"),
    "listing": ("tree_blobs", "work_changes", "ignored_paths", "tree_paths", "tracked",
        "is_tracked", "staged_deletions", "write_tree"),
    "log": ("HISTORY_FORMAT", "TOUCH_FORMAT", "ENTRY_FORMAT", "LIST_FORMAT", "path_commits",
        "history", "last_touches", "touches", "had_path", "newest", "head_subject",
        "boundary_walk", "messages_with", "last_change", "commit_time", "commit_count"),
    "worktree": ("COMMITTING", "in_worktree", "ok_in_worktree"),
}
_HOMES = {name: home for home, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # __import__, not importlib: the importlib package costs 'vc status' an import
    value = getattr(__import__(f"{__name__}.{home}", fromlist=[name]), name)
    globals()[name] = value  # later reads skip this function
    return value
