"""The LLM engine against a real HTTP server on loopback: one call per domain, and fallback."""

from __future__ import annotations

import json

from dream_support import NOW, OAUTH, add, duplicate_pair
from llm_server import ChatServer, reply

from brv_vc.services import dream
from brv_vc.tree.config import LlmSettings


def _phase(request):
    return json.loads(request["messages"][1]["content"])["phase"]


def test_the_provider_decides_with_one_call_per_domain(project):
    a, b = duplicate_pair(project)
    add(project, "security/tokens", "Token storage", OAUTH + " Stored encrypted at rest.")

    def handler(request):
        body = json.loads(request["messages"][1]["content"])
        if body["phase"] == "consolidate" and any(
                op["action"] == "MERGE" for op in body["candidates"]):
            return reply(json.dumps([{"operation": "consolidate", "action": "CROSS_REFERENCE",
                                      "files": [a, b], "reason": "two angles, keep both"}]))
        return reply("[]")

    with ChatServer(handler) as server:
        settings = LlmSettings(base_url=server.base_url, model="m")
        result = dream.dream(project, NOW, force=True, llm=settings)
        bodies = [json.loads(r["messages"][1]["content"]) for r in server.requests]
        phases = [_phase(r) for r in server.requests]
    # one call per domain: each call's candidates are of one domain, no domain twice
    domains = [{op.get("target", op.get("file", (op.get("files") or ["?"])[0])).split("/")[0]
                for op in b["candidates"]} for b in bodies if b["phase"] == "consolidate"]
    assert all(len(d) == 1 for d in domains)
    assert len(domains) == len({next(iter(d)) for d in domains}) >= 1
    assert phases.count("synthesize") <= 1
    assert [op["action"] for op in result.operations if op["operation"] == "consolidate"] == [
        "CROSS_REFERENCE"]
    assert (project.tree / b).exists()
    assert result.problems == ()


def test_a_failing_provider_falls_back_to_the_detectors(project):
    _a, b = duplicate_pair(project)
    with ChatServer(lambda request: (500, "overloaded")) as server:
        settings = LlmSettings(base_url=server.base_url, model="m")
        result = dream.dream(project, NOW, force=True, llm=settings)
    merges = [op for op in result.operations if op["action"] == "MERGE"]
    assert merges[0]["sources"] == [b]
    assert any("the provider's decision was not usable" in p for p in result.problems)


def test_a_reply_naming_other_files_falls_back(project):
    duplicate_pair(project)
    bad = [{"operation": "prune", "action": "ARCHIVE", "file": "x/y/z.md", "reason": "r"}]
    with ChatServer(lambda request: reply(json.dumps(bad))) as server:
        settings = LlmSettings(base_url=server.base_url, model="m")
        result = dream.dream(project, NOW, force=True, llm=settings)
    assert "MERGE" in [op["action"] for op in result.operations]
    assert any("decision 0 is about prune, not consolidate" in p for p in result.problems)
