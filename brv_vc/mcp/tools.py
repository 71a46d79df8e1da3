"""The bodies of the MCP tools: a service call and the CLI's ``--json`` shape of its result.

Each function takes plain JSON values, finds the project from ``cwd`` (or the folder the
server started in) and returns what ``brv ... --json`` prints, so an agent reads the same
answers through either face. A domain error becomes the CLI's error object, raised as
:class:`ToolFailure` for the server to return with ``isError``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from brv_vc.cli.brain_cmd import brain_payload
from brv_vc.cli.curate_cmd import batch_error
from brv_vc.cli.plain import jsonable, versioned
from brv_vc.errors import BrvError
from brv_vc.tree.project import Project, find_project


class ToolFailure(Exception):
    """A tool's refusal: ``payload`` is the CLI's ``{"ok": false, "error": {...}}``."""

    def __init__(self, payload: dict[str, Any]) -> None:
        super().__init__(payload["error"]["message"])
        self.payload = payload


def _scrubbed(doc: dict[str, Any]) -> dict[str, Any]:
    """An error document with every credential its texts quote masked (``brv_vc.scrub``)."""
    from brv_vc.scrub import scrub

    error = {key: scrub(value) if isinstance(value, str) else value
             for key, value in doc["error"].items()}
    return versioned({**doc, "error": error})


class Tools:
    """The tools of one server: where it started and its clock.

    A call's ``cwd`` may name a folder of the server's own project (the one it was started
    in) or a project the user allowed (``tree/confine.py``), never another one.
    """

    def __init__(self, start: Path, clock: Callable[[], datetime]) -> None:
        self.start = start
        self.clock = clock
        self._sessions: dict[Path, Any] = {}  # project root -> its resident SearchSession
        self._own_root: Path | None = None

    def close(self) -> None:
        """Writes the sessions' pending hits and closes their connections."""
        for session in self._sessions.values():
            session.close()
        self._sessions.clear()

    def _project(self, cwd: str | None) -> Project:
        """The project of a call; what a killed writer left is settled first.

        A listing when nothing was left (services/recovery.py).
        """
        from brv_vc.services import recovery

        if cwd:
            project = find_project(Path(cwd))
            if project.root != self._own():
                from brv_vc.tree.confine import refuse_foreign_cwd

                refuse_foreign_cwd(self._own(), project.root, cwd)
        else:
            project = find_project(self.start)
        if recovery.left_behind(project):
            recovery.settle(project, self.clock())
        return project

    def _own(self) -> Path | None:
        """The root of the project the server was started in (None: outside any)."""
        if self._own_root is None:  # found once it exists ('brv init' after the start)
            try:
                self._own_root = find_project(self.start).root
            except BrvError:
                return None
        return self._own_root

    def _writing(self, cwd: str | None) -> Project:
        """The project a tool is about to change, its session's pending hits written first.

        A hit written after a MERGE or DELETE would bring back the gone path's signals.
        """
        project = self._project(cwd)
        if (session := self._sessions.get(project.root)) is not None:
            session.flush()
        return project

    def call(self, body: Callable[[], Any]) -> dict[str, Any]:
        """Runs a tool body; a BrvError becomes a ToolFailure with the CLI's error object."""
        try:
            result = body()
        except BrvError as error:
            raise ToolFailure(_scrubbed({"ok": False, "error": error.to_dict()})) from None
        except Exception as exc:  # the SDK would answer only "Error executing tool"
            from brv_vc.tree.diskerrors import disk_error

            disk = disk_error(exc)  # a full or read-only disk: what to do, as the CLI says
            found = disk.to_dict() if disk is not None else {
                "code": "internal",
                "message": f"internal error: {type(exc).__name__}: {exc}",
                "hint": "this is a bug in brv; the server keeps running, so the other tools "
                        "still answer; please report it with the call that caused it",
            }
            raise ToolFailure(_scrubbed({"ok": False, "error": found})) from None
        payload = result if isinstance(result, dict) else jsonable(result)
        return versioned({"ok": True, **payload} if "ok" not in payload else payload)

    def search(self, query: str, limit: int = 10, scope: str | None = None,
               cwd: str | None = None, record: bool = True) -> dict[str, Any]:
        """``brv search --json`` via the resident session (``record=False``: ``--no-record``)."""
        from brv_vc.services.query import SearchSession

        def body() -> Any:
            project = self._project(cwd)
            session = self._sessions.get(project.root)
            if session is None:
                session = self._sessions[project.root] = SearchSession(project)
            return session.search(query, now=self.clock(), limit=limit, scope=scope,
                                  record=record)

        return self.call(body)

    def query(self, question: str, cwd: str | None = None) -> dict[str, Any]:
        """``brv query --json``."""
        from brv_vc.services.query import query_tree

        return self.call(lambda: query_tree(self._project(cwd), question, now=self.clock()))

    def curate(self, operations: list[dict[str, Any]], atomic: bool = False,
               dry_run: bool = False, cwd: str | None = None) -> dict[str, Any]:
        """``brv curate --ops - --json``: per-operation results."""
        from brv_vc.services.curate import run_batch, validate_ops

        def body() -> dict[str, Any]:
            validate_ops(operations, file="operations")
            result = run_batch(self._writing(cwd), operations, self.clock(), atomic=atomic,
                               dry_run=dry_run)
            payload: dict[str, Any] = {**jsonable(result), "ok": result.ok}
            if not result.ok:
                payload["error"] = batch_error(result)
            return payload

        return self.call(body)

    def show(self, path: str, cwd: str | None = None) -> dict[str, Any]:
        """``brv show --json``."""
        from brv_vc.services.show import show_entry

        return self.call(lambda: show_entry(self._project(cwd), path, now=self.clock()))

    def about(self, paths: list[str], cwd: str | None = None) -> dict[str, Any]:
        """``brv about PATH... --json``: relative paths are read from ``cwd`` (or the start)."""
        import os

        from brv_vc.services import code_links

        def body() -> Any:
            base = Path(cwd) if cwd else self.start
            return code_links.about(self._project(cwd),
                                    [os.path.normpath(base / path) for path in paths])

        return self.call(body)

    def stale(self, since: str | None = None, cwd: str | None = None) -> dict[str, Any]:
        """``brv stale --json``."""
        from brv_vc.services import code_links

        return self.call(lambda: code_links.stale(self._project(cwd), since=since))

    def brain(self, budget: int = 6000, if_none_match: str | None = None,
              cwd: str | None = None) -> dict[str, Any]:
        """``brv brain --json`` (``notModified`` when ``if_none_match`` still holds)."""
        from brv_vc.services.brain import assemble

        def body() -> dict[str, Any]:
            return brain_payload(assemble(self._project(cwd), self.clock(), budget=budget,
                                          if_none_match=if_none_match))

        return self.call(body)

    def hydrate(self, path: str = "", budget: int = 4000,
                cwd: str | None = None) -> dict[str, Any]:
        """``brv hydrate --json``."""
        from brv_vc.services.hydrate import hydrate

        return self.call(lambda: hydrate(self._project(cwd), path, self.clock(), budget=budget))

    def dehydrate(self, path: str, digest: str, cwd: str | None = None) -> dict[str, Any]:
        """``brv dehydrate --json``."""
        from brv_vc.services.hydrate import dehydrate

        return self.call(lambda: dehydrate(self._writing(cwd), path, digest, self.clock()))

    def vc_status(self, cwd: str | None = None) -> dict[str, Any]:
        """``brv vc status --json``."""
        from brv_vc.services import vc

        return self.call(lambda: vc.status(vc.prepare(self._project(cwd))))

    def vc_diff(self, ref: str | None = None, staged: bool = False,
                markdown: bool = False, cwd: str | None = None) -> dict[str, Any]:
        """``brv vc diff --json`` (or its pull-request markdown)."""
        from brv_vc.cli.vc.diffs import diff_answer
        from brv_vc.services import vc
        from brv_vc.vc.diff_render import render_markdown

        def body() -> dict[str, Any]:
            project = self._project(cwd)
            out, report, code = diff_answer(project, vc.prepare(project), ref, staged)
            if markdown:
                out["markdown"] = render_markdown(report.entries, report.base, report.target,
                                                  (code.stale, code.updated))
            return out

        return self.call(body)

    def manifest(self, cwd: str | None = None) -> dict[str, Any]:
        """``brv manifest --json``."""
        from brv_vc.services.derived import show_manifest

        def body() -> dict[str, Any]:
            result = show_manifest(self._project(cwd), self.clock())
            return {"rebuilt": result.rebuilt, **result.manifest}

        return self.call(body)
