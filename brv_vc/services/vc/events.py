"""What each git hook does when git runs it (``brv hook-impl``).

Installing them is ``services.hooks``.

- pre-commit: refuse invalid staged knowledge (see ``checks``), then refresh derived
  state for the staged entries. It never changes a tracked file.
- pre-push: refuse pushing commits that ``brv vc push`` refuses (conflict markers, tracked
  derived files): the same check, ``pushing.refuse_unpushable``.
- post-merge, post-checkout, post-rewrite: refresh derived state for the paths that changed.
  git ignores (or merely forwards) their exit status, so they fail open: problems are
  reported as warnings and the hook exits 0.
Every run that refreshes appends one JSON line to ``.brv/state/hooks.log`` (per machine):
``hook_refresh``, with :class:`HookRun`, what a run did.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from brv_vc.errors import BrvError, UsageError
from brv_vc.services.vc.hook_env import HOOKS, done_by_command
from brv_vc.services.vc.hook_refresh import HookRun as HookRun
from brv_vc.services.vc.hook_refresh import refresh_between, refresh_paths, tree_paths
from brv_vc.tree.project import Project, find_root
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo, locate


def run_hook(
    start: Path,
    name: str,
    args: Sequence[str],
    now: datetime,
    *,
    stdin: str = "",
    index_file: str | None = None,
    include_pending: bool = False,
    push_checked: str | None = None,
    commit_checked: str | None = None,
    refreshing: str | None = None,
) -> HookRun:
    """Runs hook ``name`` as git would, from the folder git runs it in.

    Args:
        start: the hook's working folder (the top of the work tree).
        name: pre-commit, post-merge, post-checkout, post-rewrite, or refresh (all paths).
        args: git's hook arguments.
        now: the clock.
        stdin: what git wrote on the hook's stdin (post-rewrite's commit pairs).
        index_file: GIT_INDEX_FILE as git exported it (pre-commit).
        include_pending: let pending review entries through (``BRV_INCLUDE_PENDING=1``).
        push_checked: the commit ``brv vc push`` already checked (``BRV_PUSH_CHECKED``);
            pre-push does not check it again.
        commit_checked: the tree ``brv vc commit`` already validated
            (``BRV_COMMIT_CHECKED``); pre-commit does not validate it again.
        refreshing: the hooks the running brv command does itself (``BRV_REFRESHING``:
            ``hook_env.done_by_command``); such a hook does nothing.

    Returns:
        The run; ``blocked`` means the commit must be refused.

    Raises:
        UsageError: an unknown hook name.
    """
    if name not in HOOKS:
        from brv_vc.vc import hooks_install as hi  # the installer's module: only for the hint

        raise UsageError(f"unknown hook {name!r}", hint=f"use one of {', '.join(hi.HOOK_NAMES)}")
    if done_by_command(name, refreshing):
        return HookRun(name, skipped="done by the running brv command")
    try:
        root = find_root(start)
    except BrvError as error:  # a .brv file that is no valid pointer: not a project to judge
        return HookRun(name, skipped=f"not a brv project ({error.message})")
    if root is None or not (root / ".brv" / "context-tree").is_dir():
        return HookRun(name, skipped="not a brv project")
    project = Project(root)
    try:
        repo = locate(project)  # a plain repository from its files, no git process
        if not repo.in_project and not start.resolve().is_relative_to(repo.workdir.resolve()):
            return _code_repository(project, start, name, tuple(args), index_file)
        if name == "pre-commit":
            return _pre_commit(project, repo, index_file, now, include_pending, commit_checked)
        if name == "commit-msg":
            if commit_checked and _index_tree(repo, index_file) == commit_checked:
                return HookRun(name, skipped="trailers added by 'brv vc commit'")
            return _commit_msg(repo, tuple(args), index_file)
        if name == "pre-push":
            return _pre_push(repo, stdin, push_checked, args[0] if args else None)
        return _post(project, repo, name, tuple(args), stdin, now)
    except BrvError as error:  # fail open: a hook must not break git over derived state
        return HookRun(name, warnings=(f"{name} hook could not run: {error.message}",))


def _pre_commit(project: Project, repo: KnowledgeRepo, index_file: str | None,
                now: datetime, include_pending: bool, checked: str | None = None) -> HookRun:
    if checked and _index_tree(repo, index_file) == checked:
        # 'brv vc commit' validated this very tree (and the review gate) before running git,
        # and refreshes its derived state itself once the commit is made; its message holds
        # the trailers already: commit-msg skips on the note, as after the shim's own skip
        from brv_vc.services.vc.hook_env import note_trailers

        note_trailers(index_file, [])
        return HookRun("pre-commit", skipped="validated and refreshed by 'brv vc commit'")
    # Imported here: the check needs YAML, which the post-* hooks never pay for.
    from brv_vc.services.vc.checks import check_scope, check_staged, in_check_scope

    git_dir = repo.whereabouts()[0]
    if repo.merging(git_dir):  # one stat: a merge git never applied is refused (checks.py)
        from brv_vc.services.vc.checks import unapplied_merge_problem

        unapplied = unapplied_merge_problem(repo, git_dir, _index_tree(repo, index_file))
        if unapplied is not None:
            return HookRun("pre-commit", blocked=True, problems=(unapplied,))
    from brv_vc.tree.config import code_links_on_commit

    # in-project: one diff of the whole index (renames followed) serves the check of the
    # staged knowledge and the note on staged code below; standalone: the check's own diff
    # (with code_links.on_commit: off no note is made: git's inexact rename search is not paid)
    moves = (git.staged_moves(repo.workdir, index_file)
             if repo.prefix and code_links_on_commit(project)[0] != "off" else None)
    staged = (git.staged_entries(repo.workdir, index_file, check_scope(repo)) if moves is None
              else [row for row in git.unrenamed(moves) if in_check_scope(repo, row[1])])
    # the staged entries as the work tree still holds them (no 'git cat-file' for those)
    check = check_staged(repo, index_file, staged, git.worktree_blobs(repo.workdir, [
        (path, blob) for status, path, blob, mode in staged
        if status != "D" and mode in ("100644", "100755") and path.endswith(".md")]))
    if check.problems:
        return HookRun("pre-commit", blocked=True, problems=check.problems,
                       checked=check.checked)
    # the review queue (~10 ms of imports) only when review is enabled: the lazy face loads
    # only the settings module for is_enabled
    from brv_vc.services import review

    if not include_pending and check.paths and review.is_enabled(project):
        from brv_vc.services.vc.checks import StagedProblem
        from brv_vc.services.vc.gating import PENDING_KEY, describe, pending_in

        waiting = pending_in(repo, check.paths)
        if waiting:
            hint = ("review them with 'brv review pending', or commit them anyway with "
                    "BRV_INCLUDE_PENDING=1 git commit ...")
            problems = tuple(StagedProblem(repo.repo_path(e.paths[0]),
                                           f"is waiting for review: {line}", hint,
                                           PENDING_KEY)
                             for e, line in zip(waiting, describe(waiting), strict=True))
            return HookRun("pre-commit", blocked=True, problems=problems, checked=check.checked)
    _note_trailers(repo, index_file, list(check.deleted))
    # inside 'git commit': abstracts and the manifest wait for the next refresh
    return _code_noted(project, repo.workdir, index_file, repo.prefix or None, lambda: refresh_paths(
        project, "pre-commit", check.paths, now, checked=check.checked, defer=True), moves)


def _code_noted(project: Project, workdir: Path, index_file: str | None, prefix: str | None,
                then: Callable[[], HookRun],
                moves: list[tuple[str, str, str, str, str]] | None = None) -> HookRun:
    """``then``, then the note on staged code whose knowledge the commit leaves out.

    ``then`` (the staged entries' refresh) runs first: their links are in the index when
    ``code_notes.commit_step`` reads it. ``prefix`` None: the tree's own repository (standalone mode), which holds no code.
    ``moves``: the staged change as already listed (``git.staged_moves``).
    """
    run = then()
    if prefix is None:
        return run
    from brv_vc.services.vc.code_notes import commit_step

    step = commit_step(project, workdir, index_file, prefix, moves)
    if step.problems:  # code_links.on_commit: block
        return HookRun("pre-commit", blocked=True, problems=step.problems,
                       warnings=(*run.warnings, *step.warnings))
    return run._replace(warnings=(*run.warnings, *step.warnings), notes=(*run.notes, *step.notes))


def _code_repository(project: Project, start: Path, name: str, args: tuple[str, ...],
                     index_file: str | None) -> HookRun:
    """A hook of the code repository around a standalone tree (the team added brv's line).

    Only pre-commit's note and post-merge's report apply there.
    """
    top = git.toplevel(start) or start
    if name == "pre-commit":
        return _code_noted(project, top, index_file, "", lambda: HookRun(name))
    orig = git.commit_of(top, "ORIG_HEAD") if name == "post-merge" and args[:1] != ("1",) else None
    if orig is not None:
        return _pull_noted(HookRun(name), project, top, "", orig)
    return HookRun(name, skipped="the code repository (brv's other hooks run in the tree's)")


def _pull_noted(run: HookRun, project: Project, workdir: Path, prefix: str, orig: str,
                what: str = "pull") -> HookRun:
    """Adds the report of the knowledge a pull (or rebase) made stale (``ORIG_HEAD..HEAD``)."""
    from brv_vc.services.vc.code_notes import pull_step

    notes, warnings = pull_step(project, workdir, prefix, orig, what)
    return run._replace(notes=(*run.notes, *notes), warnings=(*run.warnings, *warnings))


def _note_trailers(repo: KnowledgeRepo, index_file: str | None, deleted: list[str]) -> None:
    """Tells the commit-msg hook which staged deletions are archives (usually none)."""
    from brv_vc.services.vc.hook_env import note_trailers
    from brv_vc.services.vc.trailers import archived_deletions

    gone = [rel for p in deleted if (rel := repo.tree_path(p)) is not None]
    note_trailers(index_file, archived_deletions(repo, deleted=gone) if gone else [])


def _index_tree(repo: KnowledgeRepo, index_file: str | None) -> str | None:
    """The tree id of the index git is about to commit (None when git cannot say)."""
    try:
        return git.write_tree(repo.workdir, Path(index_file) if index_file else None)
    except BrvError:  # git is missing
        return None


def _pre_push(repo: KnowledgeRepo, stdin: str, checked: str | None = None,
              remote: str | None = None) -> HookRun:
    """Refuses the push when a pushed commit is one ``brv vc push`` would refuse.

    git writes ``<local ref> <local sha> <remote ref> <remote sha>`` lines on stdin; a
    deletion pushes nothing. Without lines (a manager that consumed them), HEAD is checked.
    The commit ``checked`` (by ``brv vc push``, which runs this push) is not checked twice;
    a plain ``git push`` names none. ``remote``: git's first argument, the remote's name (or
    its URL when the push names no remote).
    """
    from brv_vc.services.vc.pushing import refuse_unpushable

    lines = [line.split() for line in stdin.splitlines() if len(line.split()) >= 2]
    # each pushed tip with the remote's tip it replaces: only their difference is checked
    bases: dict[str, str | None] = {}
    for words in lines:
        if words[1] != git.NULL_SHA:
            remote = words[3] if len(words) >= 4 and words[3] != git.NULL_SHA else None
            bases[words[1]] = remote if words[1] not in bases else None
    tips = sorted(bases)
    for tip in tips if lines else [repo.head() or "HEAD"]:
        if tip == checked:
            continue
        base = bases.get(tip)
        try:
            refuse_unpushable(repo, tip, base if base and repo.rev(base) else None, remote)
        except BrvError as error:  # the very refusal of 'brv vc push'
            from brv_vc.services.vc.checks import StagedProblem  # YAML, schema: only then

            problem = StagedProblem(error.file or "", error.message, error.hint or "")
            return HookRun("pre-push", blocked=True, problems=(problem,), checked=len(tips))
    return HookRun("pre-push", checked=len(tips))


def _commit_msg(repo: KnowledgeRepo, args: tuple[str, ...], index_file: str | None) -> HookRun:
    """Adds ``Brv-Archived:`` trailers for archived entries the commit deletes.

    ``brv vc commit`` adds them too; this way a plain ``git commit`` carries archives to the
    team as well.
    """
    # Imported here: the light module, not the vc services (this hook runs on every commit)
    from brv_vc.services.vc.trailers import archived_deletions
    from brv_vc.vc.archived import with_trailers

    if not args or repo.merging():
        return HookRun("commit-msg", skipped="no message file" if not args else "merge commit")
    archived = archived_deletions(repo, Path(index_file) if index_file else None)
    if archived:
        path = Path(args[0]) if Path(args[0]).is_absolute() else repo.workdir / args[0]
        message = path.read_text(encoding="utf-8")
        updated = with_trailers(message, archived)
        if updated != message:
            path.write_text(updated, encoding="utf-8")
    return HookRun("commit-msg", trailers=tuple(archived))


def _post(project: Project, repo: KnowledgeRepo, name: str, args: tuple[str, ...], stdin: str,
          now: datetime) -> HookRun:
    top = repo.workdir

    if name == "refresh":
        return refresh_paths(project, name, None, now)
    if name == "post-checkout":
        old, new, flag = (*args, "", "", "")[:3]
        if flag == "0":
            return HookRun(name, skipped="file checkout")
        # post-rewrite refreshes once when the rebase ends (one that replays nothing, a
        # fast-forward, has none: its checkout refreshes)
        if repo.replaying(repo.whereabouts()[0]):
            return HookRun(name, skipped="rebase in progress")
        if not old or old == git.NULL_SHA:  # clone or worktree add: everything is new
            return refresh_paths(project, name, None, now)
        return refresh_between(project, repo, name, old, new, now)
    if name == "post-merge":
        if args[:1] == ("1",):  # squash: HEAD did not move, the changes are staged
            staged = [p for _, p, _ in git.staged_files(top)]
            return refresh_paths(project, name, tree_paths(repo, staged), now)
        orig, head = git.commits_of(top, "ORIG_HEAD", "HEAD")
        if orig is None:  # the first pull into an empty branch
            return refresh_paths(project, name, None, now)
        # one diff of the whole change: the refresh's, and (no config, no code in it) the
        # settings and stale-knowledge reports need no diff of their own
        from brv_vc.services.vc import pulled_back as pb

        raw = pb.whole_change(top, orig, head)
        touched = None if raw is None else {p for _, p, _, _ in raw}
        # a failure is a warning: the refresh runs
        kept, failed = pb.guarded(pb.after_merge, project, repo, orig, head, raw, now)
        run = _settings_noticed(refresh_between(project, repo, name, orig, head or "HEAD",
                                                now, known=head is not None, raw=raw),
                                project, repo, orig, head, touched)
        run = run._replace(notes=(*kept, *run.notes), warnings=(*failed, *run.warnings))
        if not repo.in_project or (touched is not None and all(
                p.startswith(".brv/") or "/.brv/" in p for p in touched)):  # no code_notes.is_code
            return run
        return _pull_noted(run, project, top, repo.prefix, orig)
    command = args[0] if args else ""
    # an amend while rebasing: the rebase's run covers it (git's files: no git process)
    if command != "rebase" and repo.rebasing(repo.whereabouts()[0]):
        return HookRun(name, skipped="rebase in progress")
    orig = git.commit_of(top, "ORIG_HEAD") if command == "rebase" else None
    if orig is not None:  # 'git pull --rebase' too: its report as post-merge's
        from brv_vc.services.vc import pulled_back as pb

        head = repo.head()
        raw = pb.whole_change(top, orig, head)  # one diff: the re-application's, the refresh's
        kept, failed = pb.guarded(pb.after_rebase, project, repo, orig, head, raw, now)
        run = refresh_between(project, repo, name, orig, head or "HEAD", now,
                              known=head is not None, raw=raw)
        run = run._replace(notes=(*kept, *run.notes), warnings=(*failed, *run.warnings))
        return _pull_noted(run, project, top, repo.prefix, orig, "rebase") if (
            repo.in_project) else run
    pairs = [line.split()[:2] for line in stdin.splitlines() if len(line.split()) >= 2]
    if not pairs:
        previous = git.commit_of(top, "HEAD@{1}")  # pre-commit framework: no stdin
        return (refresh_between(project, repo, name, previous, "HEAD", now) if previous
                else refresh_paths(project, name, None, now))
    changed: set[str] = set()
    for old, new in pairs:
        changed.update(git.changed_between(top, old, new, repo.prefix or None))
    return refresh_paths(project, name, tree_paths(repo, sorted(changed)), now)


def _settings_noticed(run: HookRun, project: Project, repo: KnowledgeRepo,
                      orig: str, head: str | None = None,
                      changed: set[str] | None = None) -> HookRun:
    """A plain 'git pull' that changed the provider or review settings says so, too."""
    from brv_vc.services.vc.settings_notice import settings_changes

    try:
        notices = settings_changes(project, repo, orig, head or repo.head(), changed)
    except Exception:  # fail open: a hook never breaks git
        return run
    return run._replace(warnings=(*run.warnings, *notices)) if notices else run


