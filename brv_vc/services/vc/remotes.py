"""``brv vc remote``: the remotes of the knowledge repository, passwords masked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from brv_vc.errors import ConflictError, GitError, NotFoundError, UsageError
from brv_vc.services.vc.configure import prepare
from brv_vc.tree.project import Project
from brv_vc.vc.repo import KnowledgeRepo


def mask_url(url: str) -> str:
    """Hides a password in ``https://user:secret@host/...``."""
    return re.sub(r"(://[^/:@]+):[^/@]+@", r"\1:***@", url)


@dataclass(frozen=True)
class RemoteResult:
    """The remotes after ``brv vc remote ...``."""

    remotes: dict[str, str]
    action: str = "list"
    name: str | None = None


def remote(project: Project, action: str = "list", name: str | None = None,
           url: str | None = None) -> RemoteResult:
    """Lists, adds, re-points or removes a remote (any URL git accepts).

    Raises:
        UsageError: a missing name or URL.
        NotFoundError: ``set-url``/``remove`` of an unknown remote.
        ConflictError: ``add`` of an existing remote.
    """
    repo = prepare(project)
    current = list_remotes(repo)
    if action != "list":
        if not name or (action in ("add", "set-url") and not url):
            raise UsageError(f"'brv vc remote {action}' needs a name"
                             + (" and a URL" if action != "remove" else ""),
                             hint="example: brv vc remote add origin git@github.com:team/kb.git")
        if action == "add" and name in current:
            raise ConflictError(f"remote '{name}' already exists ({mask_url(current[name])})",
                                hint=f"change it with 'brv vc remote set-url {name} URL'")
        if action in ("set-url", "remove") and name not in current:
            raise NotFoundError(f"no remote named '{name}'",
                                hint="list remotes with 'brv vc remote'")
        args = {"add": ["remote", "add", name, url or ""],
                "set-url": ["remote", "set-url", name, url or ""],
                "remove": ["remote", "remove", name]}[action]
        repo.git(*args)
    return RemoteResult({k: mask_url(v) for k, v in list_remotes(repo).items()}, action, name)


def list_remotes(repo: KnowledgeRepo) -> dict[str, str]:
    """Remote name -> URL (unmasked), from the repository's config."""
    out = repo.git_ok("config", "--get-regexp", r"^remote\..*\.url$") or ""
    found = {}
    for line in out.splitlines():
        key, _, value = line.partition(" ")
        found[key[len("remote."):-len(".url")]] = value
    return found


def need_remote(repo: KnowledgeRepo, name: str | None,
                remotes: dict[str, str] | None = None) -> str:
    """The remote to talk to: ``name``, else origin, else the first (fetch, pull, push).

    ``remotes``: :func:`list_remotes` when the caller read it already (:func:`push_config`).

    Raises:
        GitError: no remote at all.
        NotFoundError: no remote called ``name``.
    """
    if remotes is None:
        remotes = list_remotes(repo)
    if not remotes:
        raise GitError("no remote configured",
                       hint="add one: brv vc remote add origin <url> (any URL git accepts: a "
                            "path, file://, ssh or https)")
    chosen = name or ("origin" if "origin" in remotes else sorted(remotes)[0])
    if chosen not in remotes:
        raise NotFoundError(f"no remote named '{chosen}'",
                            hint="list remotes with 'brv vc remote'")
    return chosen


def upstream(repo: KnowledgeRepo) -> tuple[str, str] | None:
    """(remote, branch) the current branch tracks, or None."""
    branch = repo.branch()
    remote = repo.git_ok("config", f"branch.{branch}.remote")
    merge = repo.git_ok("config", f"branch.{branch}.merge")
    if not remote or not merge:
        return None
    return remote.strip(), merge.strip().removeprefix("refs/heads/")


def push_config(repo: KnowledgeRepo, branch: str
                ) -> tuple[dict[str, str], tuple[str, str] | None]:
    """(:func:`list_remotes`, :func:`upstream` of ``branch``) from one ``git config`` read.

    A push runs on every change: one process instead of three (the branch's name is matched
    here, exactly, not in a regular expression git would read).
    """
    out = repo.git_ok("config", "--get-regexp",
                      r"^(remote\..*\.url|branch\..*\.(remote|merge))$") or ""
    remotes: dict[str, str] = {}
    tracking: dict[str, str] = {}
    for line in out.splitlines():
        key, _, value = line.partition(" ")
        if key.startswith("remote.") and key.endswith(".url"):
            remotes[key[len("remote."):-len(".url")]] = value
        elif key in (f"branch.{branch}.remote", f"branch.{branch}.merge"):
            tracking[key.rsplit(".", 1)[1]] = value
    remote, merge = tracking.get("remote", "").strip(), tracking.get("merge", "").strip()
    return remotes, (remote, merge.removeprefix("refs/heads/")) if remote and merge else None
