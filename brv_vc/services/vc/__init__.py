"""Knowledge under git: the use cases of ``brv vc`` and of git's hooks.

Set up, stage and commit, branch, sync with remotes, semantic diffs and merges, and the
step that follows any change of HEAD (pull, merge, checkout, reset, and git's own hooks
through ``run_hook``).
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.vc.archive import AfterChange, after_change
    from brv_vc.services.vc.branches import BranchResult, branch, checkout
    from brv_vc.services.vc.changes import StatusReport, status
    from brv_vc.services.vc.checks import StagedCheck, StagedProblem, check_staged, entry_check
    from brv_vc.services.vc.clone import clone_repo
    from brv_vc.services.vc.code_notes import CodeKnowledge, code_knowledge
    from brv_vc.services.vc.committing import CommitResult, LogEntry, commit, log
    from brv_vc.services.vc.configure import prepare
    from brv_vc.services.vc.diff import DiffReport, semantic_diff
    from brv_vc.services.vc.driver import render_textconv, run_merge_driver
    from brv_vc.services.vc.events import run_hook
    from brv_vc.services.vc.hook_env import framework_invocation, nothing_to_trail
    from brv_vc.services.vc.hook_refresh import HookRun
    from brv_vc.services.vc.pushing import PushResult, push
    from brv_vc.services.vc.recovery import RecoverResult, recover
    from brv_vc.services.vc.remotes import RemoteResult, remote
    from brv_vc.services.vc.resetting import reset
    from brv_vc.services.vc.resolving import ResolveResult, resolve
    from brv_vc.services.vc.rolled_forward import settle_reapply
    from brv_vc.services.vc.round_trips import RoundTrip, round_trip
    from brv_vc.services.vc.setup import InitResult, init_repo
    from brv_vc.services.vc.staging import add
    from brv_vc.services.vc.sync import (
        SyncResult,
        fetch,
        merge,
        merge_abort,
        merge_continue,
        pull,
    )
    from brv_vc.services.vc.trailers import archived_deletions
    from brv_vc.services.vc.validate import Validation, validate_tree

_HOMES = {
    "add": "staging",
    "AfterChange": "archive", "after_change": "archive",
    "BranchResult": "branches", "branch": "branches", "checkout": "branches",
    "StagedCheck": "checks", "StagedProblem": "checks", "check_staged": "checks",
    "entry_check": "checks",
    "clone_repo": "clone", "CodeKnowledge": "code_notes", "code_knowledge": "code_notes",
    "CommitResult": "committing", "LogEntry": "committing", "archived_deletions": "trailers",
    "commit": "committing", "log": "committing",
    "DiffReport": "diff", "semantic_diff": "diff",
    "render_textconv": "driver", "run_merge_driver": "driver",
    "HookRun": "hook_refresh", "run_hook": "events",
    "framework_invocation": "hook_env", "nothing_to_trail": "hook_env",
    "RecoverResult": "recovery", "recover": "recovery",
    "reset": "resetting", "ResolveResult": "resolving", "resolve": "resolving",
    "RoundTrip": "round_trips", "round_trip": "round_trips",
    "InitResult": "setup", "init_repo": "setup", "prepare": "configure",
    "RemoteResult": "remotes", "remote": "remotes",
    "StatusReport": "changes", "status": "changes",
    "PushResult": "pushing", "SyncResult": "sync", "fetch": "sync", "merge": "sync",
    "merge_abort": "sync", "merge_continue": "sync", "pull": "sync", "push": "pushing",
    "Validation": "validate", "validate_tree": "validate",
    "settle_reapply": "rolled_forward",
}
__all__ = ["AfterChange", "BranchResult", "CodeKnowledge", "CommitResult", "DiffReport", "HookRun", "InitResult", "LogEntry",
           "PushResult", "RecoverResult", "RemoteResult", "ResolveResult", "RoundTrip", "StagedCheck", "StagedProblem", "StatusReport",
           "SyncResult", "Validation", "add", "after_change", "archived_deletions", "branch", "check_staged",
           "checkout", "clone_repo", "code_knowledge", "commit", "entry_check", "fetch", "framework_invocation", "init_repo",
           "log", "merge", "merge_abort", "merge_continue", "nothing_to_trail", "prepare", "pull", "push", "recover", "remote",
           "render_textconv", "reset", "resolve", "round_trip", "run_hook", "run_merge_driver", "semantic_diff", "settle_reapply", "status",
           "validate_tree"]
__getattr__ = lazy(__name__, _HOMES)
