"""brv's part in a hook manager's own configuration: lefthook's YAML, the pre-commit framework's.

Why text edits and not a YAML dump: a dump would drop the team's comments, key order and
quoting. So brv inserts its lines where they belong and then checks, by parsing both, that
the result is valid YAML holding exactly the old document plus brv's part; anything it
cannot place that way (flow style, lefthook ``jobs:``, TOML/JSON configs) is left to the
printed snippet (:func:`snippet`, what the team adds for any manager). Running it again
changes nothing (``merged`` returns the text unchanged).

The commands reach brv without PATH (``hook_managers.hook_line``): the interpreter that ran
``brv hooks install`` on this machine, recorded as ``git config brv.python``.
"""

from __future__ import annotations

import re
from typing import Any

from brv_vc.vc import hook_managers as hm

# lefthook passes git's arguments as {0}; `set --` makes them "$@" for the shared line
_ARGS = {"pre-commit": ""}


def _quoted(value: str) -> str:
    """``value`` as a YAML single-quoted scalar (no escapes but a doubled quote)."""
    return "'" + value.replace("'", "''") + "'"


def _lefthook_run(name: str, knowledge: str) -> str:
    prefix = _ARGS.get(name, "set -- {0}; ")
    return prefix + hm.hook_line(name, knowledge).split(f"  {hm.LINE_TAG}")[0]


def _lefthook_block(name: str, knowledge: str, at: str, step: str) -> list[str]:
    """The command that runs brv under lefthook, its ``brv:`` key indented by ``at``."""
    lines = [f"{at}brv:", f"{at}{step}run: {_quoted(_lefthook_run(name, knowledge))}"]
    if name in ("pre-push", "post-rewrite"):
        lines.append(f"{at}{step}use_stdin: true")
    return lines


def _load(text: str) -> Any:
    import yaml  # only for a repository that uses one of these managers

    try:
        return yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError:
        return None


def _top_key(lines: list[str], key: str) -> int | None:
    for i, line in enumerate(lines):
        if re.fullmatch(rf"{re.escape(key)}:\s*(#.*)?", line.rstrip("\n")):
            return i
    return None


def _block_end(lines: list[str], start: int) -> int:
    """The index after the last line of the top-level block that starts at ``start``."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#-"):
        end += 1
    return end


def _indent_of(lines: list[str], start: int, end: int) -> str | None:
    for line in lines[start + 1:end]:
        if line.strip() and not line.lstrip().startswith("#"):
            return line[: len(line) - len(line.lstrip())]
    return None


def lefthook_merged(text: str, names: tuple[str, ...], knowledge: str) -> str | None:
    """``lefthook.yml`` with a ``brv`` command in each hook of ``names``; None when unsure.

    A hook that already runs brv (``hook-impl NAME`` in its text) is left as it is.
    """
    old = _load(text)
    if not isinstance(old, dict):
        return None
    lines = text.splitlines()
    for name in names:
        hook = old.get(name)
        if isinstance(hook, dict) and f"hook-impl {name}" in str(hook):
            continue
        if isinstance(hook, dict) and "jobs" in hook:
            return None  # lefthook 2's job list: the snippet says what to add
        start = _top_key(lines, name)
        if start is None:
            if name in old:
                return None
            lines += ["", f"{name}:", "  commands:", *_lefthook_block(name, knowledge, "    ",
                                                                       "  ")]
            continue
        end = _block_end(lines, start)
        indent = _indent_of(lines, start, end) or "  "
        commands = next((i for i in range(start + 1, end)
                         if lines[i].rstrip() == f"{indent}commands:"), None)
        if commands is None:
            block = [f"{indent}commands:", *_lefthook_block(name, knowledge, indent * 2, indent)]
            lines[start + 1:start + 1] = block
        else:
            inner = _indent_of(lines, commands, end) or indent * 2
            step = inner[len(indent):] or "  "
            lines[commands + 1:commands + 1] = _lefthook_block(name, knowledge, inner, step)
    new_text = "\n".join(lines).rstrip("\n") + "\n"
    return new_text if _only_added(old, _load(new_text), names) else None


def _only_added(old: dict[str, Any], new: Any, names: tuple[str, ...]) -> bool:
    """True when ``new`` is ``old`` plus a ``brv`` command in each hook of ``names``."""
    if not isinstance(new, dict) or set(new) - set(old) - set(names):
        return False
    for key, value in new.items():
        if key not in names:
            if value != old.get(key):
                return False
            continue
        if not isinstance(value, dict) or not isinstance(value.get("commands"), dict):
            return False
        if f"hook-impl {key}" in str(old.get(key)):
            if value != old.get(key):
                return False
            continue
        rest = {**value, "commands": {k: v for k, v in value["commands"].items() if k != "brv"}}
        before = old.get(key) or {}
        if not isinstance(before, dict):
            return False
        if not before.get("commands"):
            rest = {k: v for k, v in rest.items() if k != "commands" or v}
        if rest != before or f"hook-impl {key}" not in str(value["commands"].get("brv")):
            return False
    return True


def framework_hooks_yaml(knowledge: str, indent: str = "  ") -> list[str]:
    """The ``repo: local`` entry that runs brv's hooks under the pre-commit framework."""
    hooks = (("brv-validate", "pre-commit", "[pre-commit]", False),
             ("brv-archive-trailers", "commit-msg", "[commit-msg]", True),
             ("brv-refresh", "refresh", "[post-merge, post-checkout, post-rewrite]", False),
             ("brv-pre-push", "pre-push", "[pre-push]", False))
    out = [f"{indent}- repo: local", f"{indent}  hooks:"]
    for hook_id, name, stages, files in hooks:
        line = hm.hook_line(name, knowledge).split(f"  {hm.LINE_TAG}")[0]
        out += [f"{indent}    - id: {hook_id}", f"{indent}      name: {hook_id}",
                f"{indent}      entry: {_quoted(f'sh -c {_quoted_sh(line)} brv')}",
                f"{indent}      language: system", f"{indent}      stages: {stages}",
                f"{indent}      always_run: true", f"{indent}      require_serial: true"]
        if not files:
            out.append(f"{indent}      pass_filenames: false")
    return out


def _quoted_sh(line: str) -> str:
    assert "'" not in line  # the hook line is written without single quotes
    return f"'{line}'"


def framework_merged(text: str, knowledge: str) -> str | None:
    """``.pre-commit-config.yaml`` with brv's ``repo: local`` entry added; None when unsure."""
    old = _load(text)
    if not isinstance(old, dict):
        return None
    repos = old.get("repos")
    if any(isinstance(r, dict) and "brv-validate" in str(r.get("hooks")) for r in repos or []):
        return text
    lines = text.splitlines()
    start = _top_key(lines, "repos")
    if start is None:
        if "repos" in old:
            return None
        lines += ["repos:", *framework_hooks_yaml(knowledge)]
    else:
        end = _block_end(lines, start)
        while end > start + 1 and (not lines[end - 1].strip()
                                   or lines[end - 1].lstrip().startswith("#")):
            end -= 1
        first = next((ln for ln in lines[start + 1:end] if ln.lstrip().startswith("- ")), None)
        indent = first[: len(first) - len(first.lstrip())] if first is not None else "  "
        lines[end:end] = framework_hooks_yaml(knowledge, indent)
    new_text = "\n".join(lines).rstrip("\n") + "\n"
    new = _load(new_text)
    ok = (isinstance(new, dict) and isinstance(new.get("repos"), list)
          and new["repos"][:-1] == (repos or [])
          and {k: v for k, v in new.items() if k != "repos"}
          == {k: v for k, v in old.items() if k != "repos"})
    return new_text if ok else None


def merged_config(manager: hm.Manager, names: tuple[str, ...], knowledge: str) -> str | None:
    """The manager's config file with brv's part in it (None: brv cannot edit this one)."""
    if manager.name not in ("lefthook", "pre-commit") or manager.config.suffix not in (
            ".yml", ".yaml"):
        return None
    try:
        text = manager.config.read_text(encoding="utf-8") if manager.config.is_file() else ""
    except OSError:
        return None
    if manager.name == "lefthook":
        return lefthook_merged(text, names, knowledge)
    return framework_merged(text, knowledge)


def snippet(manager: hm.Manager, names: tuple[str, ...], knowledge: str = ".brv/context-tree"
            ) -> str:
    """What the team adds to the manager's configuration so that brv's part runs.

    For lefthook and the pre-commit framework: the whole config file with brv's part merged
    in, valid as printed (``brv hooks install --integrate`` writes exactly this).
    """
    merged = merged_config(manager, names, knowledge)
    if merged is not None:
        then = hm.install_command(manager, names)
        return "\n".join([f"# {manager.config.name} with brv's part merged in (or run "
                          "'brv hooks install --integrate' to write it), then: " + then,
                          merged.rstrip("\n")])
    if manager.name == "lefthook":
        return (f"# {manager.config.name}: brv cannot merge into this file; add to each hook "
                "a command running: " + hm.hook_line("pre-commit", knowledge))
    if manager.name == "simple-git-hooks":
        pairs = ", ".join(f'"{n}": "brv hook-impl {n}"' for n in names)
        return (f'# {manager.config.name}: "simple-git-hooks": {{{pairs}}}\n'
                "# (join with && to a command already there), then: npx simple-git-hooks")
    if manager.name == "pre-commit":
        return (f"# {manager.config.name} is not YAML brv can edit; add brv's hooks from "
                f"https://github.com/<org>/brv-vc at rev: {hm.RELEASE} (docs/hooks.md)")
    return "\n".join([f"# add this line to {manager.config / n} (an executable sh script):\n"
                      f"{hm.hook_line(n, knowledge)}" for n in names])
