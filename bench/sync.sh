#!/usr/bin/env bash
# Merging another machine's log (issue 29): `lectern sync` on a fresh data
# folder whose sync folder holds one other device's log of N records (nine
# answers in ten, over 50 lessons of 4 checks, and notes), then again with
# nothing new. The records are generated here (python3: JSON and CRC-32 as
# lectern writes them). Prints one markdown row per size.
#
#   bench/sync.sh
#
# Environment (besides those in bench/common.sh):
#   SIZES="2000 10000"   records in the log
#   WORK=/tmp/lectern-sync-bench
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

work=${WORK:-/tmp/lectern-sync-bench}
build
[[ -x $LECTERN ]] || die "no lectern at $LECTERN"
command -v python3 >/dev/null || die "python3 is needed to write the log"

gen() {
    python3 - "$1" "$2" <<'PY'
import datetime, json, sys, zlib
n, out = int(sys.argv[1]), sys.argv[2]
t0 = datetime.datetime(2026, 1, 1, 9, 0, 0)
with open(out, "w") as f:
    for i in range(n):
        at = (t0 + datetime.timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        l, c = i % 50, (i // 50) % 4
        if i % 10 == 9:
            ch = {"change": "annotation", "course": "bench", "lesson": f"l{l}", "id": f"n{i % 300}",
                  "target": {"exact": "some quoted words", "start": 0, "end": 17, "block": 1},
                  "note": f"note {i}", "deleted": False, "at": at}
        else:
            ch = {"change": "attempt", "course": "bench", "lesson": f"l{l}", "check": f"q{c}",
                  "option": i % 3, "answer": None, "correct": i % 3 == 0, "review": i > n // 2,
                  "revealed": False, "drill": False, "at": at}
        rec = json.dumps({"seq": i + 1, "device": "0123456789abcdef", "at": at, "change": ch},
                         separators=(",", ":"))
        f.write(f"{rec}\t{zlib.crc32(rec.encode()):08x}\n")
PY
}

# Seconds of wall time of one command (python3's clock around the process).
timed() {
    python3 - "$@" <<'PY'
import subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(f"{time.perf_counter() - t:.3f}")
PY
}

echo "| records | log | first merge | again, nothing new |"
echo "|---:|---:|---:|---:|"
for n in ${SIZES:-2000 10000}; do
    rm -rf "$work"
    mkdir -p "$work/sync/lectern"
    gen "$n" "$work/sync/lectern/0123456789abcdef.log"
    bytes=$(stat -c %s "$work/sync/lectern/0123456789abcdef.log")
    export LECTERN_DATA_DIR=$work/data LECTERN_CACHE_DIR=$work/cache LECTERN_SYNC_DIR=$work/sync
    first=$(timed "$LECTERN" sync)
    again=$(timed "$LECTERN" sync)
    echo "| $n | $((bytes / 1024)) KiB | ${first} s | ${again} s |"
done
