"""The agents of ``bench/team_sim.py`` and the ledger of every write they were told succeeded.

Each agent writes its own section (``## Agent k``) of entries, with a unique token per write:
an UPDATE of that section supersedes the agent's earlier token there (one writer per section,
so "later" is well defined), a MERGE folds the source's tokens into the target, a DELETE ends
an entry. The ``## Status`` section of the shared entries is written by everyone (true
conflicts on purpose): one of its reported tokens must survive. Tokens are single words, so
``brv search TOKEN`` must find their entry.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

from bench.team_sim_world import SEEDED, Clone, World

CONTESTED = "Status"


@dataclass
class Ledger:
    """Expected knowledge, built only from operations reported ``success``."""

    sections: dict[str, dict[str, set[str]]] = field(default_factory=dict)  # path -> sec -> tokens
    alive: dict[str, bool] = field(default_factory=dict)
    contested: dict[str, set[str]] = field(default_factory=dict)  # path -> Status tokens
    reported: dict[int, dict[str, bool]] = field(default_factory=dict)  # clone -> reason -> ok
    writes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, clone: int, op: dict[str, object], result: dict[str, object]) -> None:
        """One operation's answer (``applied[i]`` of curate's JSON)."""
        ok = result.get("status") == "success"
        with self.lock:
            self.reported.setdefault(clone, {})[str(op["reason"])] = ok
            if not ok:
                return
            self.writes += 1
            kind = op["type"]
            # a MERGE's answer names its target, a DELETE's its path: the op says which
            path = str(op["path"] if kind in ("MERGE", "DELETE") else result.get("file")
                       or op["path"])
            if kind == "DELETE":
                self.alive[path] = False
                self.sections.pop(path, None)
                return
            if kind == "MERGE":
                target = str(op["target"])
                into = self.sections.setdefault(target, {})
                for sec, tokens in self.sections.pop(path, {}).items():
                    into.setdefault(sec, set()).update(tokens)
                self.contested.setdefault(target, set()).update(self.contested.pop(path, set()))
                self.alive[path] = False
                self.alive[target] = True
                return
            sec, token = str(op["_section"]), str(op["_token"])
            self.alive[path] = True
            if sec == CONTESTED:
                self.contested.setdefault(path, set()).add(token)
            else:
                self.sections.setdefault(path, {})[sec] = {token}


    def forget(self, ops: list[dict[str, object]]) -> None:
        """A killed batch: what it may have done to the entries it names is not known."""
        with self.lock:
            for op in ops:
                for path in (str(op["path"]), str(op.get("target") or "")):
                    if not path.endswith(".md"):
                        continue
                    if op["type"] in ("MERGE", "DELETE"):
                        self.sections.pop(path, None)
                        self.contested.pop(path, None)
                        self.alive.pop(path, None)
                    else:
                        self.sections.get(path, {}).pop(str(op.get("_section")), None)


@dataclass
class Agent:
    """One clone's agent: what it believes it owns, and its counter of writes."""

    clone: Clone
    own: list[str] = field(default_factory=list)
    shared: list[str] = field(default_factory=lambda: list(SEEDED))
    seq: int = 0

    def token(self) -> str:
        self.seq += 1
        return f"zq{self.clone.index}x{self.seq}k{self.clone.rng.randrange(36 ** 3):x}"

    def batch(self, round_no: int) -> list[dict[str, object]]:
        """One to three operations on own and shared folders."""
        rng, k = self.clone.rng, self.clone.index
        ops: list[dict[str, object]] = []
        for _ in range(rng.randint(1, 3)):
            token = self.token()
            mine = f"Agent {k}"
            body = f"## {mine}\n{token}\n"
            reason = f"sim c{k} n{self.seq}"
            roll = rng.random()
            if roll < 0.2 or not self.own:
                op = {"type": "ADD", "path": f"agent{k}/notes", "title": f"Note {k} {self.seq}"}
            elif roll < 0.35:
                op = {"type": "UPDATE", "path": rng.choice(self.own)}
            elif roll < 0.5:
                op = {"type": "UPSERT", "path": rng.choice(self.shared)}
            elif roll < 0.62:
                op = {"type": "ADD", "path": f"shared/round_{round_no}",
                      "title": f"Shared {k} {self.seq}"}
            elif roll < 0.72:
                op = {"type": "UPDATE", "path": rng.choice(SEEDED)}
                mine, body = CONTESTED, f"## {CONTESTED}\n{token}\n"
            elif roll < 0.82 and len(self.own) >= 2:
                source, target = rng.sample(self.own, 2)
                ops.append({"type": "MERGE", "path": source, "target": target, "reason": reason})
                self.own.remove(source)
                continue
            elif roll < 0.9 and len(self.own) >= 2:
                victim = rng.choice(self.own)
                ops.append({"type": "DELETE", "path": victim, "reason": reason})
                self.own.remove(victim)
                continue
            else:
                op = {"type": "UPDATE", "path": rng.choice(self.shared)}
            ops.append({**op, "content": body, "reason": reason, "_section": mine,
                        "_token": token})
        return ops

    def learn(self, op: dict[str, object], result: dict[str, object]) -> None:
        if result.get("status") != "success" or op["type"] != "ADD":
            return
        path = str(result.get("file") or "")
        (self.own if path.startswith(f"agent{self.clone.index}/") else self.shared).append(path)


def wire(ops: list[dict[str, object]]) -> list[dict[str, object]]:
    """The operations as curate takes them (the ledger's private keys removed)."""
    return [{k: v for k, v in op.items() if not k.startswith("_")} for op in ops]


def curate_cli(world: World, clone: Clone, ops: list[dict[str, object]]) -> list[dict] | None:
    """``brv curate --ops - --json``; None when the process was killed (outcome unknown)."""
    ran = world.brv(clone, "curate", "--ops", "-", "--json", stdin=json.dumps(wire(ops)))
    if ran.killed:
        return None
    applied = ran.json().get("applied")
    return applied if isinstance(applied, list) else [{"status": "failed"} for _ in ops]


def curate_mcp(world: World, clone: Clone, ops: list[dict[str, object]]) -> list[dict] | None:
    """The ``brv-curate`` tool of a ``brv mcp`` session (the MCP SDK's stdio client).

    Now and then (``--kills``) the server is killed (``kill -9``) a random moment after it
    started, as a crashed or closed agent host does: None then (outcome unknown).
    """
    import os
    import signal
    import sys

    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    kill_after = world.kill_delay(clone)
    pid_file = world.base / f"mcp-{clone.index}.pid"
    pid_file.unlink(missing_ok=True)
    # the shell writes the server's pid, then becomes it (exec): the pid is the server's
    params = StdioServerParameters(
        command="/bin/sh", args=["-c", f'echo $$ > "{pid_file}"; exec "$0" -m brv_vc mcp',
                                 sys.executable],
        cwd=str(clone.root), env=world.clone_env(clone))
    killed: list[int] = []

    async def kill_later(delay: float) -> None:
        await anyio.sleep(delay)
        for _ in range(100):  # the pid file is written as the server starts
            try:
                pid = int(pid_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                await anyio.sleep(0.01)
                continue
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except ProcessLookupError:
                pass
            return

    async def main() -> object:
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as s, \
                    anyio.create_task_group() as group:
                if kill_after is not None:
                    group.start_soon(kill_later, kill_after)
                await s.initialize()
                answer = await s.call_tool("brv-curate", {"operations": wire(ops)})
                group.cancel_scope.cancel()
                return answer

    try:
        result = anyio.run(main)
    except Exception:  # the session broke: nothing was reported to the agent
        if killed:
            world.note(clone, "brv mcp -> KILLED")
            world.add("kills")
            world.add("kills: brv mcp")
            return None
        world.add("mcp sessions broken")
        return [{"status": "failed"} for _ in ops]
    if killed:  # the answer came before the kill: the session ended as usual
        world.add("mcp kills after the answer")
    try:
        body = json.loads(result.content[0].text)  # type: ignore[attr-defined]
    except (ValueError, AttributeError, IndexError):
        return [{"status": "failed"} for _ in ops]
    applied = body.get("applied") if isinstance(body, dict) else None
    return applied if isinstance(applied, list) else [{"status": "failed"} for _ in ops]


def agent_turn(world: World, agent: Agent, ledger: Ledger, round_no: int) -> None:
    """One batch through the CLI or MCP; every answered operation goes to the ledger."""
    ops = agent.batch(round_no)
    use_mcp = agent.clone.rng.random() < 0.35
    world.add("batches via MCP" if use_mcp else "batches via CLI")
    applied = (curate_mcp if use_mcp else curate_cli)(world, agent.clone, ops)
    if applied is None:
        world.add("writes killed (outcome unknown)", len(ops))
        for op in ops:
            world.note(agent.clone, f"killed {op['type']} {op['path']} {op.get('_token', '')}")
        ledger.forget(ops)
        return
    for op, result in zip(ops, applied, strict=False):
        world.note(agent.clone, f"{'mcp' if use_mcp else 'cli'} {op['type']} {op['path']} "
                                f"{op.get('_section', '')} {op.get('_token', '')} "
                                f"-> {result.get('status')} {result.get('file', '')}")
        if result.get("status") != "success":
            world.add(f"ops failed ({op['type']}: {result.get('code') or 'no answer'})")
        ledger.record(agent.clone.index, op, result)
        agent.learn(op, result)
