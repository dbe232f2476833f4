#!/usr/bin/env bash
# The hostile inputs of issue 30, each at a size and at 4x it: wall time
# and peak memory of one lectern command on it, and the ratio of the two
# times (budget: about 4, never the 16 of a quadratic path).
#
#   bench/hostile.sh
#
# Families (each generated here, written by this script, nothing
# third-party): a config of unknown keys (render), a run of tag characters
# (render), CJK text without spaces (render), an include after a long
# prefix (render of a book), many one-line includes (render of a book), a
# quiz file used many times (render of a book), one word repeated in a
# query (search), a never-closed directive (render of a book).
# Prints a markdown table for BENCHMARKS.md.
#
# Environment (besides those in bench/common.sh):
#   SCALE=1      multiplies every base size (SCALE=4: the 4x of the 4x)
#   WORK=/tmp/lectern-hostile   where the inputs are written
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

scale=${SCALE:-1}
work=${WORK:-/tmp/lectern-hostile}
build
[[ -x $LECTERN ]] || die "no lectern at $LECTERN"
command -v python3 >/dev/null || die "python3 is needed to write the inputs"
rm -rf "$work"
mkdir -p "$work"
export LECTERN_DATA_DIR=$work/data LECTERN_CACHE_DIR=$work/cache

# measure ARGS...: "seconds peak_kB" of one run of lectern ARGS.
measure() {
    /usr/bin/time -o "$work/time" -f '%e %M' "$LECTERN" "$@" >/dev/null 2>&1 || true
    tail -1 "$work/time"
}

# book DIR CHAPTER_TEXT_FILE: an mdBook whose one chapter is that text.
book() {
    mkdir -p "$1/src"
    printf '[book]\ntitle = "H"\n' >"$1/book.toml"
    printf '# Summary\n\n- [C](c.md)\n' >"$1/src/SUMMARY.md"
    mv "$2" "$1/src/c.md"
}

# case NAME SIZE: writes the input of family NAME at SIZE, prints the
# lectern arguments that read it.
make_case() {
    local name=$1 n=$2 d=$work/$1-$2
    mkdir -p "$d"
    case $name in
    config-keys)
        python3 -c "import sys; sys.stdout.write(''.join(f'k{i} = 1\n' for i in range($n)))" >"$d/config.toml"
        printf '# A\n\nhello\n' >"$d/a.md"
        echo "--config $d/config.toml render $d/a.md"
        ;;
    tag-run)
        python3 -c "import sys; sys.stdout.write('# T\n\n' + '\U000E0041' * ($n // 4) + '\n')" >"$d/t.md"
        echo "render $d/t.md"
        ;;
    cjk-run)
        python3 -c "import sys; sys.stdout.write('# C\n\n' + '漢字' * ($n // 6) + '\n')" >"$d/c.md"
        echo "render $d/c.md"
        ;;
    include-prefix)
        python3 -c "import sys; sys.stdout.write('x\n' * $n)" >"$d/lines.txt"
        mkdir -p "$d/b/src"
        mv "$d/lines.txt" "$d/b/src/"
        python3 -c "import sys; sys.stdout.write('# C\n\n' + ' ' * $n + '{{#include lines.txt}}\n')" >"$d/c.md"
        book "$d/b" "$d/c.md"
        echo "render $d/b/src/c.md"
        ;;
    many-includes)
        mkdir -p "$d/b/src"
        echo "one line" >"$d/b/src/one.txt"
        python3 -c "import sys; sys.stdout.write('# C\n\n' + '{{#include one.txt}}\n' * $n)" >"$d/c.md"
        book "$d/b" "$d/c.md"
        echo "render $d/b/src/c.md"
        ;;
    quiz-reused)
        mkdir -p "$d/b/src"
        python3 - "$d/b/src/q.toml" <<'PY'
import sys
qs = ''.join(f'[[questions]]\ntype = "MultipleChoice"\nprompt.prompt = "Q{i} {"w " * 40}"\nanswer.answer = "A"\nprompt.distractors = ["B"]\n' for i in range(400))
open(sys.argv[1], 'w').write(qs)
PY
        python3 -c "import sys; sys.stdout.write('# C\n\n' + '{{#quiz q.toml}}\n\n' * ($n // 1000))" >"$d/c.md"
        book "$d/b" "$d/c.md"
        echo "render $d/b/src/c.md"
        ;;
    open-directive)
        python3 -c "import sys; sys.stdout.write('# C\n\n{{#include ' + 'a' * $n + '\n')" >"$d/c.md"
        book "$d/b" "$d/c.md"
        echo "render $d/b/src/c.md"
        ;;
    query-repeat)
        printf '# A\n\nhello world\n' >"$d/a.md"
        printf '# B\n\nother\n' >"$d/b.md"
        python3 -c "import sys; sys.stdout.write(' '.join(['hello'] * ($n // 100)))" >"$d/query"
        echo "search $d $(cat "$d/query")"
        ;;
    esac
}

# Base sizes: bytes of input (a count for config keys).
families=(
    "config-keys 20000"
    "tag-run 160000"
    "cjk-run 600000"
    "include-prefix 2000"
    "many-includes 100000"
    "quiz-reused 200000"
    "open-directive 1000000"
    "query-repeat 250000"
)

echo "| input | size | time | peak | 4x size | time | peak | time ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for f in "${families[@]}"; do
    read -r name base <<<"$f"
    n=$((base * scale))
    read -ra a <<<"$(make_case "$name" "$n")"
    read -r t1 m1 <<<"$(measure "${a[@]}")"
    read -ra b <<<"$(make_case "$name" $((n * 4)))"
    read -r t4 m4 <<<"$(measure "${b[@]}")"
    ratio=$(python3 -c "print(f'{max($t4, 0.01) / max($t1, 0.01):.1f}')")
    echo "| $name | $n | ${t1} s | $((m1 / 1024)) MB | $((n * 4)) | ${t4} s | $((m4 / 1024)) MB | $ratio |"
done
