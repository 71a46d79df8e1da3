"""Text output of the ``brv vc`` commands (git-like wording, brv hints)."""

from __future__ import annotations

from brv_vc.words import plural

TYPE_CHECKING = False  # typing costs ~2 ms to import, on the budgeted status path
if TYPE_CHECKING:  # types only: 'vc status' must not import the sync services
    from typing import Any

    from brv_vc.services.vc import (
        BranchResult,
        CommitResult,
        InitResult,
        LogEntry,
        PushResult,
        RoundTrip,
        StatusReport,
        SyncResult,
    )

_LABEL = {"added": "new file", "deleted": "deleted", "modified": "modified",
          "renamed": "renamed", "typechange": "typechange", "copied": "copied"}



def status_text(r: StatusReport) -> str:
    """``git status``-like text."""
    from brv_vc.vc.status import MODIFY_DELETE  # 'vc status' has it loaded; pull and commit not

    lines = [f"On branch {r.branch}" if r.branch != "HEAD" else "HEAD detached"]
    if r.upstream and not r.merging:
        if r.ahead and r.behind:
            lines.append(f"Your branch and '{r.upstream}' have diverged "
                         f"({r.ahead} and {r.behind} different commits); run 'brv vc pull'.")
        elif r.ahead:
            lines.append(f"Your branch is ahead of '{r.upstream}' by {plural(r.ahead, 'commit')}"
                         " (publish them with 'brv vc push').")
        elif r.behind:
            lines.append(f"Your branch is behind '{r.upstream}' by {plural(r.behind, 'commit')}"
                         " (update with 'brv vc pull').")
        else:
            lines.append(f"Your branch is up to date with '{r.upstream}'.")
    if r.initial:
        lines += ["", "No commits yet"]
    if r.merging:
        lines += ["", "You are in the middle of a merge (fix conflicts, 'brv vc add' them, then "
                      "'brv vc merge --continue'; or 'brv vc merge --abort')."]
    groups = [
        ("Unmerged paths:", '(use "brv vc add <file>..." to mark resolution' + (
            '; "brv vc resolve" folds an entry MERGEd away on one side into its target)'
            if any(c.change in MODIFY_DELETE for c in r.conflicts) else ")"),
         [f"{c.change}:   {c.path}" for c in r.conflicts]),
        ("Changes to be committed:", '(use "brv vc reset <file>..." to unstage)',
         [f"{_LABEL.get(c.change, c.change)}:   "
          + (f"{c.old} -> {c.path}" if c.old else c.path) for c in r.staged]),
        ("Changes not staged for commit:", '(use "brv vc add <file>..." to stage them)',
         [f"{_LABEL.get(c.change, c.change)}:   {c.path}" for c in r.unstaged]),
        ("Untracked files:", '(use "brv vc add <file>..." to include them)', list(r.untracked)),
        ("Files with conflict markers:", "(resolve every <<<<<<< block before committing)",
         list(r.markers)),
        ("Committed files with conflict markers:",
         "(resolve every <<<<<<< block, then 'brv vc add' and 'brv vc commit')",
         list(r.committed_markers)),
    ]
    for title, hint, rows in groups:
        if rows:
            lines += ["", title, f"  {hint}", *(f"\t{row}" for row in rows)]
    if r.clean and r.committed_markers:
        lines += ["", "nothing to commit, but committed knowledge holds conflict markers"]
    elif r.clean:
        lines += ["", "nothing to commit, knowledge tree clean"]
    return "\n".join(lines)


def init_text(r: InitResult) -> str:
    """``vc init`` / ``clone``."""
    where = r.workdir + (f" (tree at {r.prefix}/)" if r.prefix else "")
    if r.url:
        head = f"Cloned {r.url} into {r.workdir}"
    else:
        verb = "Reinitialized" if r.reinitialized else "Initialized"
        head = f"{verb} {r.mode} knowledge repository in {where}"
    hooks = [f"  git hook {line}" for line in r.hooks]
    if r.adopted:
        hooks.append(f"  adopted: untracked {plural(len(r.adopted), 'derived file')} in commit "
                     f"{(r.adopt_commit or '')[:7]} (the files stay on disk)")
    return "\n".join([head, *(f"  wrote {name}" for name in r.written), *hooks,
                      *(f"note: {note}" for note in r.notes)])


def commit_text(r: CommitResult) -> str:
    """``vc commit``."""
    subject = r.message.splitlines()[0]
    tail = f"\n  archived: {', '.join(r.archived)}" if r.archived else ""
    return f"[{r.branch} {r.sha[:7]}] {subject}\n {plural(r.files, 'file')} changed{tail}"


def log_text(entries: tuple[LogEntry, ...]) -> str:
    """``vc log``."""
    if not entries:
        return "No commits yet."
    return "\n".join(f"{e.sha[:7]} {e.date[:10]} {e.author}: {e.subject}" for e in entries)


def sync_text(r: SyncResult) -> str:
    """``vc pull`` / ``merge`` / ``checkout``."""
    if r.action == "checkout" and not r.switched:
        return f"Already on '{r.source}'"
    if r.action == "checkout":
        head = f"Switched to branch '{r.source}'"
    elif r.up_to_date:
        return "Already up to date."
    elif r.conflicts:
        rows = "\n".join(f"\t{c.change}:   {c.path}" for c in r.conflicts)
        return (f"Automatic merge failed; fix conflicts and then run 'brv vc add' and "
                f"'brv vc merge --continue' (or 'brv vc merge --abort'):\n{rows}")
    elif r.action == "merge --abort":
        return (f"Merge aborted: HEAD stays at {(r.new or '')[:7]}, the commit before the merge; "
                "the merge's changes were removed from the files and the index.")
    elif r.old is None:
        head = f"Branch had no commits; now at {(r.new or '')[:7]} (from {r.source})"
    else:
        head = f"Updated {r.old[:7]}..{(r.new or '')[:7]}"
    return "\n".join([head, *_after_lines(r.after), *(f"note: {n}" for n in r.notices)])


def _after_lines(after: Any) -> list[str]:
    """What the post-change step did (files, archives rebuilt or dropped, warnings)."""
    if after is None:
        return []
    lines = []
    if after.changed:
        lines.append(f" {plural(len(after.changed), 'knowledge file')} changed")
    lines += [f" rebuilt archive: {p}" for p in after.archived]
    lines += [f" removed archive of restored entry: {p}" for p in after.unarchived]
    lines += [f" warning: {p}" for p in after.problems]
    return lines


def reset_text(r: Any) -> str:
    """``vc reset``: git's "HEAD is now at <sha> <subject>", or what was unstaged."""
    if r.target is None:
        return "Unstaged."
    return "\n".join([f"HEAD is now at {r.sha[:7]} {r.subject}".rstrip(),
                      *_after_lines(r.after)])


def add_warnings(r: Any) -> list[str]:
    """``vc add``: one warning per staged file that still holds conflict markers."""
    return [f"{hit.path}:{hit.line}: conflict markers are still in the file; it was staged, "
            "but 'brv vc merge --continue' and 'brv vc commit' will refuse it until each "
            "<<<<<<< / ======= / >>>>>>> block is resolved"
            for hit in r.still_conflicted]


def fetch_text(r: Any) -> str:
    """``vc fetch`` (a ``sync.FetchResult``)."""
    return f"Fetched {r.remote} ({r.url}): {r.ahead} ahead, {r.behind} behind"


def push_text(r: PushResult) -> str:
    """``vc push``."""
    if r.up_to_date:
        return "Everything up-to-date."
    tail = ""
    if r.set_upstream:
        tail = f"\nbranch '{r.branch}' set up to track '{r.remote}/{r.branch}'."
    return f"Pushed to {r.remote}/{r.branch}.{tail}"


def round_trip_text(r: RoundTrip) -> str:
    """``vc sync``: what arrived, what left, how many tries; or the conflicts that stopped it."""
    where = f"{r.remote}/{r.branch}"
    if r.conflicts:
        rows = "\n".join(f"\t{c.change}:   {c.path}" for c in r.conflicts)
        return (f"Sync stopped: pulling {where} met true conflicts (the same field or section "
                f"changed two ways); nothing was pushed:\n{rows}\nResolve each <<<<<<< block, "
                "'brv vc add' the files and 'brv vc merge --continue', then run 'brv vc sync' "
                "again (or give the merge up with 'brv vc merge --abort').")
    lines = [f"Pulled {plural(len(r.arrived), 'file')} from {where}: {', '.join(r.arrived)}"
             if r.arrived else f"Nothing new from {where}."]
    if r.commits:
        lines.append(f"Pushed {plural(r.commits, 'commit')} ({plural(len(r.left), 'file')}) "
                     f"to {where}.")
    else:
        lines.append("Nothing to push.")
    if r.tries > 1:
        lines.append(f"Took {r.tries} tries (teammates pushed first; {r.waited:.1f} s waited).")
    return "\n".join(lines)


def branch_text(r: BranchResult) -> str:
    """``vc branch``."""
    if r.action == "create":
        return f"Created branch '{r.name}'."
    if r.action == "delete":
        return f"Deleted branch '{r.name}'."
    if r.action == "set-upstream":
        return f"Branch '{r.current}' now tracks its upstream."
    rows = [("* " if b == r.current else "  ") + b for b in r.branches]
    return "\n".join(rows) or "No branches yet."


def remote_text(r: Any) -> str:
    """``vc remote``."""
    if not r.remotes:
        return "No remote configured (add one: brv vc remote add origin <url>)."
    return "\n".join(f"{name}\t{url}" for name, url in sorted(r.remotes.items()))


def add_text(r: Any) -> str:
    """``brv vc add``: what was staged, resolved, or already up to date."""
    lines = []
    still = {hit.path for hit in r.still_conflicted}
    resolved = [p for p in r.resolved if p not in still]
    if resolved:
        lines.append("Marked resolved: " + ", ".join(resolved))
    if r.staged or not resolved:
        lines.append(f"Staged {r.staged} file(s)")
    if r.unchanged:
        lines.append("Unchanged (nothing to stage): " + ", ".join(r.unchanged))
    return "\n".join(lines)
