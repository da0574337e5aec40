#!/usr/bin/env bash
# A coverage-guided fuzzing campaign on one target (FUZZING.md):
#
#   scripts/fuzz.sh TARGET [SECONDS]      TARGET: front, decode, passes, runtime
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# Runs one libFuzzer process (-jobs=1 -workers=1; FUZZ_ARGS="-jobs=2
# -workers=2" runs two on one corpus, one per core) for SECONDS (default 300)
# on the working corpus fuzz/corpus/TARGET (not committed), seeded from the
# project's test programs and from testdata/fuzz/TARGET (the saved inputs
# that tests/fuzz_replay.rs replays on stable). A finding lands in
# fuzz/artifacts/TARGET/; minimize it (`cargo +nightly fuzz tmin -s none
# TARGET FILE`), save it under testdata/fuzz/TARGET/, fix, and the replay
# test keeps it fixed. The log is fuzz/logs/TARGET.log (job N's, past the
# first, fuzz/logs/TARGET-N.log).
#
# Environment: FLUIDC (a fluidc binary to compile seed programs with;
# default target/release/fluidc, built if missing), FUZZ_ARGS (more
# libFuzzer flags).
set -euo pipefail

target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS] (front, decode, passes, runtime)}
seconds=${2:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# passes: every length at once (-len_control=0), so the generator writes
# whole programs from the start, not a few statements.
len_control=
case $target in
front) max_len=4096 ;;
decode) max_len=16384 ;;
passes) max_len=512 len_control=-len_control=0 ;;
runtime) max_len=8192 ;;
*)
    echo "unknown target $target: front, decode, passes or runtime" >&2
    exit 2
    ;;
esac

corpus=fuzz/corpus/$target
mkdir -p "$corpus" fuzz/artifacts/"$target" fuzz/logs testdata/fuzz/"$target"

# Seeds: the project's scripts for the front end; Paddle's programs and
# the scripts compiled (-O0, select lowered) for the decoder and runtime.
scripts=(testdata/front/ok/*.py testdata/programs/*.py testdata/passes/*/*.py testdata/run/*.py)
case $target in
front) cp -n "${scripts[@]}" "$corpus"/ ;;
decode | runtime)
    cp -n testdata/paddle/*.pb "$corpus"/
    fluidc=${FLUIDC:-target/release/fluidc}
    if [ ! -x "$fluidc" ]; then
        cargo build --release --quiet
    fi
    for f in "${scripts[@]}"; do
        out=$corpus/$(basename "$(dirname "$f")")-$(basename "$f" .py).pb
        [ -e "$out" ] || "$fluidc" compile "$f" -O0 -o "$out" 2>/dev/null || true
    done
    ;;
esac

log=fuzz/logs/$target.log
start=$(date +%s)
# -jobs makes libFuzzer write job N's output to fuzz-N.log in the current
# directory; they are moved to fuzz/logs afterwards. -reload=60: jobs on
# one corpus pick up each other's finds once a minute (the default, every
# second, re-lists the whole corpus directory: 17% of the time with 7,500
# files).
set +e
cargo +nightly fuzz run -s none "$target" "$corpus" testdata/fuzz/"$target" -- \
    -max_total_time="$seconds" -jobs=1 -workers=1 -timeout=20 -rss_limit_mb=4096 \
    -reload=60 -max_len="$max_len" -print_final_stats=1 $len_control ${FUZZ_ARGS:-}
status=$?
set -e
for f in fuzz-*.log; do
    [ -f "$f" ] || continue
    n=${f#fuzz-}
    n=${n%.log}
    if [ "$n" = 0 ]; then mv "$f" "$log"; else mv "$f" "fuzz/logs/$target-$n.log"; fi
done
echo "== $target: $(($(date +%s) - start)) s, exit $status; log $log"
grep -E "^#[0-9]+ *(DONE|pulse|NEW)|stat::|SUMMARY|panicked|ERROR" "$log" | tail -8 || true
ls fuzz/artifacts/"$target" | sed 's/^/finding: /'
exit $status
