#!/usr/bin/env bash
# ./dev fuzz [TARGET|all] [SECONDS]: build the libFuzzer targets of fuzz/ (the `fuzz` preset:
# clang, address and undefined sanitizers) and run each for SECONDS (default 60) from its seed
# corpus (fuzz/README.md). Inputs that find new coverage go to build/fuzz/corpus/<target>/, never
# into the repository; an input that crashes is kept as fuzz/crashes/<target>/crash-<sha1>.
# Exits 1 when any target crashed (every target still runs), after naming the files.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

die() {
    printf 'fuzz: %s\n' "$*" >&2
    exit 2
}

all=()
for source in fuzz/*.cpp; do
    all+=("$(basename "$source" .cpp)")
done

which=${1:-all}
seconds=${2:-60}
case "$which" in
[0-9]*) # ./dev fuzz SECONDS
    seconds=$which
    which=all
    ;;
esac
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || die "SECONDS must be a positive whole number, not '$seconds'"
if [ "$which" = all ]; then
    targets=("${all[@]}")
else
    [ -f "fuzz/$which.cpp" ] || die "no target '$which'; the targets: ${all[*]}"
    targets=("$which")
fi

if [ ! -f build/fuzz/build.ninja ]; then
    cmake --preset fuzz >/dev/null
fi
cmake --build --preset fuzz

crashed=()
for target in "${targets[@]}"; do
    mkdir -p "build/fuzz/corpus/$target" "fuzz/crashes/$target"
    before=$(find "fuzz/crashes/$target" -type f | sort)
    printf 'fuzz: %s for %s s\n' "$target" "$seconds" >&2
    # -timeout: an input that takes over 10 s is a hang, kept like a crash. The first corpus
    # directory is the one libFuzzer writes to.
    if ! "build/fuzz/bin/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="fuzz/crashes/$target/" \
        "build/fuzz/corpus/$target" "fuzz/corpus/$target" 2>"build/fuzz/$target.log"; then
        tail -n 40 "build/fuzz/$target.log" >&2
        crashed+=("$target")
    fi
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
        "build/fuzz/$target.log" | sed "s/^/fuzz: $target /" >&2 || true
    comm -13 <(printf '%s\n' "$before") <(find "fuzz/crashes/$target" -type f | sort) |
        sed '/^$/d; s/^/fuzz: new crashing input: /' >&2
done

if [ ${#crashed[@]} -gt 0 ]; then
    printf 'fuzz: crashed: %s (logs in build/fuzz/<target>.log; reproduce with build/fuzz/bin/fuzz_<target> FILE)\n' \
        "${crashed[*]}" >&2
    exit 1
fi
printf 'fuzz: no crash in %s\n' "${targets[*]}" >&2
