#!/usr/bin/env bash
# ./dev bench [memory]: load benchmarks, side by side with a bare Pistache endpoint in one run.
#
# memory: lastrod on the sample data (SQLite) takes REQUESTS requests of /v1/fundos?q=credito
# through wrk (2 threads, 32 connections); the bare endpoint takes the same load. Reports
# requests/s, latency and resident memory (VmRSS, VmHWM) of both, and their ratios.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
requests=${REQUESTS:-100000}
preset=release
say() { printf 'bench: %s\n' "$*" >&2; }

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target lastrod lastro lastro-funds bare_endpoint >/dev/null
bin="$repo/build/$preset/bin"

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cat >"$work/lastro.yaml" <<YAML
server: {listen: "127.0.0.1:18080", threads: 2, base_url: "http://127.0.0.1:18080"}
data_dir: $work/data
plugins: {manifest_dirs: [$repo/build/$preset/plugins]}
log: {access_log: off}
YAML
export LASTRO_CONFIG="$work/lastro.yaml"
"$bin/lastro" db migrate 2>/dev/null
"$bin/lastro" sample --out "$work/sample" 2>/dev/null
"$bin/lastro" ingest cvm.registro_fundo_classe "$work/sample/registro_fundo_classe.zip" 2>/dev/null
export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)

rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }

# wrk runs by duration: run it until `requests` have been sent.
load() {  # url -> "requests req/s p99"
    local url=$1 sent=0 out
    local total_time=0
    while [ "$sent" -lt "$requests" ]; do
        out=$(wrk -t2 -c32 -d10s --latency -s bench/auth.lua "$url")
        sent=$((sent + $(echo "$out" | awk '/requests in/ {print $1}')))
        last=$out
    done
    echo "$sent $(echo "$last" | awk '/Requests\/sec/ {print $2}') $(echo "$last" | awk '$1 == "99%" {print $2}')"
}

"$bin/lastrod" 2>"$work/lastrod.log" &
lastrod_pid=$!
"$bin/bare_endpoint" 18090 2 2>/dev/null &
bare_pid=$!
sleep 1
lastrod_start=$(rss $lastrod_pid)
bare_start=$(rss $bare_pid)
read -r l_sent l_rps l_p99 < <(load "http://127.0.0.1:18080/v1/fundos?q=credito&limit=25")
read -r b_sent b_rps b_p99 < <(load "http://127.0.0.1:18090/v1/fundos?q=credito&limit=25")
l_rss=$(rss $lastrod_pid); l_hwm=$(hwm $lastrod_pid)
b_rss=$(rss $bare_pid); b_hwm=$(hwm $bare_pid)

printf '%-14s %10s %10s %10s %12s %12s %12s\n' server requests req/s p99 rss_start_kB rss_end_kB peak_kB
printf '%-14s %10s %10s %10s %12s %12s %12s\n' lastrod "$l_sent" "$l_rps" "$l_p99" "$lastrod_start" "$l_rss" "$l_hwm"
printf '%-14s %10s %10s %10s %12s %12s %12s\n' bare_pistache "$b_sent" "$b_rps" "$b_p99" "$bare_start" "$b_rss" "$b_hwm"
awk -v a="$l_rps" -v b="$b_rps" -v r="$l_rss" -v s="$b_rss" 'BEGIN {
    printf "ratio lastrod/bare: throughput %.3f, resident memory %.2f\n", a / b, r / s
    printf "lastrod resident after the load: %.1f MB (requirement: under 100 MB)\n", r / 1024 }'
