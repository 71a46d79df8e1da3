"""The text of a hook's refusal: click-free, shared by ``brv hook-impl`` and its fast path."""

from __future__ import annotations

from brv_vc.words import agree, plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.vc import HookRun


def blocked_text(run: HookRun) -> str:
    """What a refusing pre-commit or pre-push hook says (the click and the fast hook-impl)."""
    if run.hook == "pre-push":
        problem = run.problems[0]
        return (f"brv: push refused: {problem.message}\n  hint: {problem.hint}\n"
                "Fix it, commit, and push again; to push anyway (not recommended): "
                "git push --no-verify")
    if run.problems[0].key == "code_links.on_commit":  # services/vc/code_notes.BLOCK_KEY
        return "\n".join([
            f"brv: commit refused: {len(run.problems)} staged code file(s) changed without the "
            "knowledge that describes them (code_links.on_commit: block)",
            *(f"  {problem.file} {problem.message}" for problem in run.problems),
            f"  fix: {run.problems[0].hint}",
            "To commit anyway: git commit --no-verify"])
    if run.problems[0].key == "merge":  # services/vc/checks.UNAPPLIED_MERGE_KEY
        problem = run.problems[0]
        return (f"brv: commit refused: {problem.message}\n  fix: {problem.hint}\n"
                "To commit anyway (not recommended): git commit --no-verify")
    if run.problems[0].key == "review":  # services/vc/gating.PENDING_KEY
        n = len(run.problems)
        return "\n".join([
            f"brv: commit refused: {plural(n, 'staged file')} {agree(n, 'is', 'are')} pending: "
            f"valid knowledge, still waiting for review",
            *(f"  {problem.file}: {problem.message}" for problem in run.problems),
            f"  fix: {run.problems[0].hint}"])
    lines = [f"brv: commit refused: {len(run.problems)} staged file(s) are not valid knowledge"]
    for problem in run.problems:
        key = f" (key '{problem.key}')" if problem.key else ""
        lines.append(f"  {problem.file}{key}: {problem.message}")
        if problem.hint:
            lines.append(f"    fix: {problem.hint}")
    lines.append("Fix the files and commit again; to commit anyway (not recommended): "
                 "git commit --no-verify")
    return "\n".join(lines)
