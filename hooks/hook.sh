#!/bin/sh
# brv-vc-hook-id: 7c3e91d0a5f4 (keep this line: `brv hooks` recognises its own scripts by it)
# Written by `brv hooks install` from one template (hooks/hook.sh in brv-vc); upgraded in place
# by running it again; removed (and any hook it replaced restored) by `brv hooks uninstall`.
# It finds brv and runs `brv hook-impl`. The recursion guard, the legacy hook and every rule
# are Python's (services/vc/hook_env.py, cli/hook_run.py); FAST lists the few of those rules
# the shell checks first so that no Python starts (rendered from hook_env.FAST_EXITS).
HOOK=pre-commit
PY=''  # the Python that ran `brv hooks install`
PKG=''  # its brv_vc/__main__.py: a stat, not a Python start, says brv is still there
FAST=''
fast() { case " $FAST " in *" $1 "*) return 0 ;; esac; return 1; }
pushed=''
case "$0" in */*) HERE=${0%/*} ;; *) HERE=. ;; esac
if [ "${0##*/}" = "$HOOK" ] && [ -e "$HERE/$HOOK.legacy" ]; then FAST=''; fi
brv_above() { d=$1; while [ -n "$d" ] && [ ! -e "$d/.brv" ]; do d=${d%/*}; done; [ -n "$d" ] || [ -e /.brv ]; }
if fast outside && ! brv_above "$PWD" && ! brv_above "$(pwd -P)"; then exit 0; fi
if fast refreshing; then : brv-refreshing-skip; fi  # rendered from vc/hook_missing.py
note="${GIT_INDEX_FILE-}.brv-trailers"
if fast trailers && [ -n "${GIT_INDEX_FILE-}" ] && [ "$note" -nt "$GIT_INDEX_FILE" ] &&
    { read -r _stamp && ! read -r _more && [ -z "$_more" ]; } < "$note" 2>/dev/null; then
  rm -f "$note"; exit 0
fi
# the index 'brv vc commit' checked, by its second name (a hard link), else asked of git
if fast checked && [ -n "${BRV_COMMIT_CHECKED-}" ] && { { [ -n "${GIT_INDEX_FILE-}" ] &&
    [ "$GIT_INDEX_FILE" -ef "$GIT_INDEX_FILE.brv-checked" ]; } ||
    [ "$(git write-tree 2>/dev/null)" = "$BRV_COMMIT_CHECKED" ]; }; then
  if [ "$HOOK" = pre-commit ]; then { echo "brv vc commit" > "$note"; } 2>/dev/null; fi
  exit 0
fi
if fast pushed && [ -n "${BRV_PUSH_CHECKED-}" ]; then
  kept=1 others=0
  while IFS= read -r _line || [ -n "$_line" ]; do pushed="$pushed$_line
"; _sha=${_line#* }; case "${_sha%% *}" in "$BRV_PUSH_CHECKED"|0000000000000000000000000000000000000000) ;;
    *) others=1 ;; esac; done
  [ -z "$pushed" ] && [ "$(git rev-parse -q --verify 'HEAD^{commit}' 2>/dev/null)" != "$BRV_PUSH_CHECKED" ] && others=1
  [ "$others" = 0 ] && exit 0
fi
feed() { if [ -n "${kept-}" ]; then printf '%s' "$pushed" | "$@"; else "$@"; fi; }
BRV_HOOK_SCRIPT=$0
export BRV_HOOK_SCRIPT
if : brv-found; then  # rendered from vc/hook_missing.py (one rule for both launchers)
  # the console script's start, not -m (~4 ms); -P: the work tree is not on the import path
  feed "$PY" -P -c \
    'import sys; sys.argv[0] = "brv"; from brv_vc.cli.entry import main; main()' hook-impl "$HOOK" "$@"
  exit
fi
if command -v brv >/dev/null 2>&1; then feed brv hook-impl "$HOOK" "$@"; exit; fi
# No brv: the legacy hook still runs first; then knowledge staged for a commit is refused
# loudly, never passed unchecked; a warning in a brv project (git runs hooks from the top of
# the work tree); nothing elsewhere. Only the BLOCKING hooks may block.
legacy=0
if [ "${0##*/}" = "$HOOK" ] && [ -x "$HERE/$HOOK.legacy" ]; then feed "$HERE/$HOOK.legacy" "$@"; legacy=$?; fi
: brv-legacy-stop  # rendered from vc/hook_missing.py BLOCKING
[ -d .brv/context-tree ] && knowledge=.brv/context-tree || knowledge=.
[ "$knowledge" = . ] && [ "${PWD%/.brv/context-tree}" = "$PWD" ] && exit "$legacy"
: brv-missing-refusal  # rendered from vc/hook_missing.py (one rule for both launchers)
: brv-missing-warning  # rendered from vc/hook_missing.py (only the shim warns)
exit "$legacy"
