# shellcheck shell=bash disable=SC2034,SC2120
# Shared by the bench scripts (sourced, not run).
#
# Environment understood by all scripts:
#   LECTERN         lectern binary to measure (default: the release build of
#                   README's "Install": for x86_64-unknown-linux-musl when that
#                   target and musl-gcc are installed, $TARGET/$MUSL/release/lectern,
#                   else $TARGET/release/lectern; built with `cargo build
#                   --release`; when set, nothing is built for it, e.g.
#                   LECTERN=bench/stand-in-lectern)
#   GLIBC=1         measure the glibc build even where musl can be built
#   CARGO_TARGET_DIR  cargo's target folder (default: <repo>/target)
#   SKIP_BUILD=1    do not run cargo at all; use the binaries already built
#   RUNS            measured runs per command

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
HARNESS=$TARGET_DIR/release/examples/first_frame
GEN=$TARGET_DIR/release/examples/gen_course
if [[ -n ${LECTERN:-} ]]; then
    LECTERN_GIVEN=1
    LECTERN=$(command -v "$LECTERN" || echo "$LECTERN")
    [[ $LECTERN == /* ]] || LECTERN=$PWD/$LECTERN
else
    LECTERN_GIVEN=0
    LECTERN=$TARGET_DIR/release/lectern
fi
# The release build README installs: musl's start-up asks the CPU nothing;
# glibc's asks it for its caches with cpuid, each a trap to the hypervisor
# on a virtual machine (0.5 ms of a C program that returns at once, here).
MUSL=x86_64-unknown-linux-musl
LECTERN_TARGET=()
if [[ $LECTERN_GIVEN == 0 && ${GLIBC:-0} != 1 ]] && command -v musl-gcc >/dev/null &&
    rustup target list --installed 2>/dev/null | grep -qx "$MUSL"; then
    LECTERN_TARGET=(--target "$MUSL")
    LECTERN=$TARGET_DIR/$MUSL/release/lectern
fi

note() { printf '%s\n' "$*" >&2; }
die() {
    note "$(basename "$0"): $*"
    exit 1
}

# Shell-quotes one word for a --cmd string.
q() { printf '%q' "$1"; }

abspath() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$PWD" "$(basename "$1")"); }

# The one argument of the per-lesson scripts: a lesson file, as an
# absolute path in $lesson; exits 2 with a usage line otherwise.
lesson_arg() {
    if [[ $# -ne 1 || ! -f $1 ]]; then
        note "usage: $0 LESSON.json"
        exit 2
    fi
    lesson=$(abspath "$1")
    command -v python3 >/dev/null || die "python3 is needed to read the lesson"
}

# build [EXAMPLE...]: release build of lectern (unless LECTERN was given) and
# of the named examples, in one cargo call. Cargo waits if another build
# holds the target folder's lock.
build() {
    if [[ ${SKIP_BUILD:-0} == 1 ]]; then
        note "SKIP_BUILD=1: using the binaries in $TARGET_DIR/release"
    else
        local args=(build --release --manifest-path "$ROOT/Cargo.toml")
        if [[ $LECTERN_GIVEN == 0 ]]; then
            note "+ cargo ${args[*]} --bin lectern ${LECTERN_TARGET[*]}"
            cargo "${args[@]}" --bin lectern "${LECTERN_TARGET[@]}" || die "cargo build failed"
        fi
        local ex
        for ex in "$@"; do args+=(--example "$ex"); done
        if [[ ${#args[@]} -gt 3 ]]; then
            note "+ cargo ${args[*]}"
            cargo "${args[@]}" || die "cargo build failed"
        fi
    fi
    [[ -x $LECTERN ]] || die "no lectern binary at $LECTERN (run: cargo build --release)"
    for ex in "$@"; do
        [[ -x $TARGET_DIR/release/examples/$ex ]] || die "no $ex at $TARGET_DIR/release/examples/$ex"
    done
}

# generated_course N [SEED]: the folder of gen_course's N lessons (seed 1
# unless given) under $COURSE_ROOT, made unless a folder there already
# holds N lessons; its path on stdout. Needs `build gen_course` first.
generated_course() {
    local n=$1 seed=${2:-1}
    local dir=${COURSE_ROOT:-/tmp}/lectern-bench-course-$n
    [[ $seed == 1 ]] || dir=$dir-s$seed
    local have=0
    [[ -d $dir ]] && have=$(find "$dir" -maxdepth 1 -name '*.json' | wc -l)
    if [[ $have -ne $n ]]; then
        rm -rf "$dir"
        "$GEN" --lessons "$n" --out "$dir" --seed "$seed" >/dev/null 2>&1 || die "gen_course failed"
    else
        note "reusing $dir ($n lessons)"
    fi
    printf '%s\n' "$dir"
}

# lesson_md LESSON.json: the lesson's markdown form (body.text) on stdout.
lesson_md() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.stdout.write((d.get("body") or {}).get("text") or "")
PY
}

# first_heading LESSON.json: the text of the lesson's first heading (reader
# blocks, else the markdown body, else the lesson title), cut to at most 40
# characters at a word boundary so that it does not wrap on screen.
first_heading() {
    python3 - "$1" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))

def short(t):
    out = ""
    for w in t.split():
        if out and len(out) + 1 + len(w) > 40:
            break
        out = f"{out} {w}" if out else w
    return out

reader = d.get("reader") or {}
for b in reader.get("blocks") or []:
    if isinstance(b, dict) and b.get("t") in ("h1", "h2", "h3", "h4"):
        t = "".join(r.get("text", "") for r in b.get("runs") or [] if isinstance(r, dict))
        if t.strip():
            print(short(t)); sys.exit()
for line in ((d.get("body") or {}).get("text") or "").splitlines():
    m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
    if m and m.group(1):
        print(short(re.sub(r"[*_`]", "", m.group(1)))); sys.exit()
print(short(d["lesson"]["title"]))
PY
}

# tsv_field FILE ROW_LABEL COLUMN: one value of a first_frame --tsv-out file.
tsv_field() {
    awk -F'\t' -v row="$2" -v col="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
        $1 == row { print $c; exit }' "$1"
}

# Pagers and their settings would change what less, bat and mdcat do.
clean_pager_env() {
    unset LESS LESSOPEN LESSCLOSE PAGER BAT_PAGER MDCAT_PAGER
}

machine_line() {
    local rev
    rev=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
    printf '%s, %s cores, %s, lectern %s (%s)\n' "$(uname -sr)" "$(nproc)" \
        "$(date -u +%Y-%m-%dT%H:%MZ)" "$rev" "$LECTERN"
}
