#!/usr/bin/env bash
# Time to first frame of `lectern LESSON.json` against less (and mdcat, bat,
# glow when installed) on the same lesson's markdown, in a 100x30
# pseudo-terminal, runs interleaved. Prints the table and lectern/less.
#
#   bench/first-frame.sh LESSON.json
#
# Environment (besides those in bench/common.sh):
#   RUNS=20  COLS=100  ROWS=30
#   MARKER          text that marks the first frame (default: the lesson's
#                   first heading, at most 40 characters)
#   LECTERN_MARKER  marker for lectern only (default: MARKER)
#   COLD=1          a new empty LECTERN_DATA_DIR for every run (default: one
#                   temporary data dir shared by all runs, so after the
#                   warm-up run lectern's store exists)
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

lesson_arg "$@"
command -v less >/dev/null || die "less is not installed (apt-get install -y less)"

build first_frame

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lectern-first-frame.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
base=$(basename "$lesson" .json)
md=$tmp/$base.md
lesson_md "$lesson" >"$md"
marker=${MARKER:-$(first_heading "$lesson")}
lectern_marker=${LECTERN_MARKER:-$marker}
clean_pager_env

labels=(less lectern)
cmds=("less $(q "$md")" "$(q "$LECTERN") $(q "$lesson")")
markers=("$marker" "$lectern_marker")

bat=$(command -v bat || command -v batcat || true)
for tool in mdcat bat glow; do
    case $tool in
    mdcat) exe=$(command -v mdcat || true) opts="--paginate" ;;
    bat) exe=$bat opts="--paging=always --color=always" ;;
    glow) exe=$(command -v glow || true) opts="-p" ;;
    esac
    if [[ -z $exe ]]; then
        note "note: $tool not on PATH, skipped"
        continue
    fi
    labels+=("$tool")
    cmds+=("$(q "$exe") $opts $(q "$md")")
    markers+=("$marker")
done

if [[ ${COLD:-0} == 1 ]]; then
    data_args=(--fresh-env LECTERN_DATA_DIR)
    data_note="a new empty LECTERN_DATA_DIR for every run"
else
    mkdir "$tmp/data"
    data_args=(--env "LECTERN_DATA_DIR=$tmp/data")
    data_note="one temporary LECTERN_DATA_DIR for all runs"
fi

args=(--runs "${RUNS:-20}" --cols "${COLS:-100}" --rows "${ROWS:-30}" --compare
    --tsv-out "$tmp/result.tsv" "${data_args[@]}")
for i in "${!cmds[@]}"; do
    args+=(--label "${labels[$i]}" --cmd "${cmds[$i]}" --marker "${markers[$i]}")
done

echo "First frame: $(basename "$lesson") ($(wc -c <"$lesson") bytes, markdown $(wc -c <"$md") bytes), ${COLS:-100}x${ROWS:-30}, ${RUNS:-20} runs each, interleaved"
echo "Marker: \"$marker\"$([[ $lectern_marker != "$marker" ]] && echo ", lectern: \"$lectern_marker\""); $data_note"
machine_line
echo
status=0
"$HARNESS" "${args[@]}" || status=$?
echo
for i in "${!cmds[@]}"; do
    printf '  %-8s %s\n' "${labels[$i]}" "${cmds[$i]}"
done
echo
ratio=$(tsv_field "$tmp/result.tsv" lectern ratio 2>/dev/null || true)
lec=$(tsv_field "$tmp/result.tsv" lectern median_ms 2>/dev/null || true)
les=$(tsv_field "$tmp/result.tsv" less median_ms 2>/dev/null || true)
if [[ $ratio =~ ^[0-9.]+$ ]]; then
    echo "lectern/less (median first frame): $ratio  ($lec ms / $les ms)"
else
    echo "lectern/less: not available (a command failed: see above)"
fi
if [[ $status -ne 0 ]]; then
    note "some runs failed. If lectern's first screen does not show \"$lectern_marker\","
    note "set LECTERN_MARKER to text that it does show (run the harness with --show to see the screen)."
fi
exit "$status"
