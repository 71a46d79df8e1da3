"""``brv vc remote``: the remotes of the knowledge repository, passwords masked."""

from __future__ import annotations

from brv_vc.errors import ConflictError, GitError, NotFoundError, UsageError
from brv_vc.record import NamedTuple
from brv_vc.scrub import mask_url
from brv_vc.services.vc.configure import prepare
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.git import remote as git_remote
from brv_vc.vc.repo import KnowledgeRepo, refuse_transport


class RemoteResult(NamedTuple):
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
        GitError: a URL naming a transport brv never runs (``fd::``, ``ext::``); nothing
            is stored.
    """
    if name and name.startswith("-"):  # git would read it as an option of push and fetch
        raise GitError(f"remote name '{name}' starts with '-' (git would read it as an "
                       "option); nothing was changed",
                       hint="name it without a leading '-', e.g. origin")
    if action in ("add", "set-url") and url:
        refuse_transport(url, f"brv vc remote {action} {name}")
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
        if action == "add":
            git_remote.add_remote(repo, name, url or "")
        elif action == "set-url":
            git_remote.set_url(repo, name, url or "")
        else:
            git_remote.remove_remote(repo, name)
    return RemoteResult({k: mask_url(v) for k, v in list_remotes(repo).items()}, action, name)


def read_config(repo: KnowledgeRepo) -> dict[str, str]:
    """The ``branch.*`` and ``remote.*`` keys of git's config (the last value of each).

    One ``git config -z`` for what the remotes and a branch's upstream would ask apart (push,
    pull and fetch run on every change). Section and key names come lowercased, the
    subsection (a branch's or remote's name) as written.
    """
    return dict(git.config_values(repo.workdir, r"^(branch|remote)\."))


def remotes_of(config: dict[str, str]) -> dict[str, str]:
    """Remote name -> URL (unmasked) from :func:`read_config`."""
    return {key[len("remote."):-len(".url")]: value for key, value in config.items()
            if key.startswith("remote.") and key.endswith(".url")}


def chosen(repo: KnowledgeRepo, remote: str | None, branch: str | None
           ) -> tuple[str, tuple[str, str] | None, dict[str, str]]:
    """The remote fetch, pull and push talk to, ``branch``'s upstream, every remote's URL.

    ``remote`` when named, else the upstream's, else origin, else the first
    (:func:`need_remote`); one ``git config`` read for both.

    Raises:
        GitError: no such remote, or none at all.
    """
    config = read_config(repo)
    upstream = upstream_of(config, branch) if branch else None
    remotes = remotes_of(config)
    return need_remote(repo, remote or (upstream[0] if upstream else None), remotes), upstream, remotes


def upstream_of(config: dict[str, str], branch: str) -> tuple[str, str] | None:
    """(remote, branch) that ``branch`` tracks, from :func:`read_config`; None: none."""
    remote = config.get(f"branch.{branch}.remote", "").strip()
    merge = config.get(f"branch.{branch}.merge", "").strip()
    if not remote or not merge:
        return None
    return remote, merge.removeprefix("refs/heads/")


def list_remotes(repo: KnowledgeRepo) -> dict[str, str]:
    """Remote name -> URL (unmasked), from the repository's config."""
    return remotes_of(read_config(repo))


def need_remote(repo: KnowledgeRepo, name: str | None,
                remotes: dict[str, str] | None = None) -> str:
    """The remote to talk to: ``name``, else origin, else the first (fetch, pull, push).

    ``remotes``: :func:`remotes_of` when the caller read the config already.

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
