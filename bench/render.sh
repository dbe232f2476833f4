#!/usr/bin/env bash
# hyperfine of `lectern render LESSON --color always --width 100` against
# `cat` of the lesson's markdown, and mdcat / bat / glow when installed.
#
#   bench/render.sh LESSON.json
#
# Environment (besides those in bench/common.sh): RUNS (hyperfine's
# --min-runs, default 30), WIDTH=100.
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

lesson_arg "$@"
command -v hyperfine >/dev/null ||
    die "hyperfine not found: install it with 'apt-get install -y hyperfine' (or 'cargo install hyperfine')"

build # lectern only
# (no examples needed: hyperfine does the timing)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lectern-render.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
md=$tmp/$(basename "$lesson" .json).md
lesson_md "$lesson" >"$md"
width=${WIDTH:-100}
mkdir "$tmp/data"
export LECTERN_DATA_DIR=$tmp/data
clean_pager_env

names=(lectern cat)
cmds=("$(q "$LECTERN") render $(q "$lesson") --color always --width $width" "cat $(q "$md")")
if exe=$(command -v mdcat); then
    # --ansi: styled output even into a pipe, as lectern --color always.
    names+=(mdcat) cmds+=("$(q "$exe") --ansi --columns $width $(q "$md")")
else
    note "note: mdcat not on PATH, skipped"
fi
if exe=$(command -v bat || command -v batcat); then
    names+=(bat) cmds+=("$(q "$exe") --color always --paging never --terminal-width $width $(q "$md")")
else
    note "note: bat not on PATH, skipped"
fi
if exe=$(command -v glow); then
    names+=(glow) cmds+=("$(q "$exe") -s dark -w $width $(q "$md")")
else
    note "note: glow not on PATH, skipped"
fi

# Each command must work before it is timed (hyperfine would time a failure).
for i in "${!cmds[@]}"; do
    if ! bash -c "${cmds[$i]}" >/dev/null 2>"$tmp/err"; then
        note "${names[$i]} fails: ${cmds[$i]}"
        cat "$tmp/err" >&2
        exit 1
    fi
done

args=(-N --warmup 3 --min-runs "${RUNS:-30}" --export-markdown "$tmp/result.md" --export-json "$tmp/result.json")
for i in "${!cmds[@]}"; do
    args+=(--command-name "${names[$i]}" "${cmds[$i]}")
done

echo "Render: $(basename "$lesson") ($(wc -c <"$lesson") bytes, markdown $(wc -c <"$md") bytes), width $width"
machine_line
echo
hyperfine "${args[@]}" >&2
echo
cat "$tmp/result.md"
echo
for i in "${!cmds[@]}"; do
    printf '  %-8s %s\n' "${names[$i]}" "${cmds[$i]}"
done
echo
python3 - "$tmp/result.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
lec = r["lectern"]["median"]
for name in ("cat", "mdcat", "bat", "glow"):
    if name in r:
        print(f"lectern/{name} (median): {lec / r[name]['median']:.2f}  "
              f"({lec * 1e3:.2f} ms / {r[name]['median'] * 1e3:.2f} ms)")
PY
