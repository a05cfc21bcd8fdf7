#!/usr/bin/env bash
# ./dev bench [memory|ingest|latency|load|pgsql|industry|series|daily|companies|stocks|scale|soak|all]:
# benchmarks, each side by side with a reference run in the same invocation (bench/README.md).
# Release preset. Default: all of them but scale and soak (all: memory, ingest, latency, load,
# pgsql, industry, series, daily, companies, stocks).
#
# memory:  lastrod on the sample (SQLite) takes REQUESTS requests of /v1/fundos?q=credito
#          through wrk (2 threads, 32 connections); a bare Pistache endpoint takes the same load.
#          CACHE_MB sets lastrod's response cache (default 32; 0: off).
#          Requests/s, p99 and resident memory of both, and their ratios.
# ingest:  one full-size month of cvm.inf_mensal_fidc (`lastro sample --scale full`): seconds and
#          peak resident memory of `lastro ingest`, beside sqlite3's own `.import` of the same
#          CSVs into bare tables.
# latency: p50/p99 of /v1/classes/{id}/snapshot and /cotas for one class at 1 and 32
#          connections (wrk, DURATION seconds each) beside the bare endpoint; with the response
#          cache (the default) and without it (server.response_cache_mb: 0).
# load:    GET /v1/resolve?cnpj=... with a valid key (authenticated, admitted and settled by the
#          ledger's group commit, one database read) at 1 and 32 connections beside the bare
#          endpoint: req/s, p50, p99, errors, the server's CPU time per call (user + system,
#          from /proc, also split between the ledger writer's thread and the HTTP workers) and
#          the throughput ratio (docs/performance.md).
#          Three times: SQLite synchronous full (the default: a disk sync per group commit) with
#          the response cache (the default) and without it, and synchronous normal (no sync),
#          to show what the cache and the sync are worth on the machine. Once, /health at 32
#          connections: the host alone (HTTP, routing, a JSON body; no key, billing or read).
#          Then the floor of any billed design on the machine, at 32 connections: the bare
#          endpoint answering through one writer thread (bench/bare_endpoint.cpp), first with
#          nothing written (the hand-over alone), then after each group's append to a journal
#          file and one fdatasync (a durable group commit with no key, ledger or database).
# pgsql:   the load benchmark on PostgreSQL, the production shape (docs/deploy.md): a durable
#          cluster of the build root's PostgreSQL 17 (fsync and synchronous_commit on, its
#          defaults) started for the run, one lastrod at 32 connections, then two lastrods on
#          that database at 16 connections each at the same time, beside the bare endpoint.
#          lastrod runs with `threads: auto` (32 on PostgreSQL, where admission waits for the
#          database); CPU per call is given for lastrod and for all of PostgreSQL's processes,
#          and for the one instance split by PostgreSQL process (pg_cpu_by_kind).
# industry: the FIDC industry aggregates (plugins/industry) on a full-size universe over MONTHS
#          months (default 120; `lastro sample --scale full --months N`): the ingest of those
#          months with their derivation, `lastro derive` of every month, beside sqlite3 reading
#          the same monthly facts once with a plain aggregate (one GROUP BY month over the
#          reports, and again with their JSON documents); the derivation of one republished
#          month; then, at 32 connections (DURATION seconds each, default 5 here), each of the
#          twelve /v1/industria indicators over 120 months and the ranking, with the response
#          cache and without it, beside the bare endpoint.
# compression: answers in gzip beside the same answers plain (issue 50), on MONTHS full-size
#          months (default 120) of the FIDC industry: /v1/resolve (1 KB), the 120-month resumo and
#          the 120-month ranking, at 32 connections, DURATION s each (default 10), with
#          `Accept-Encoding: gzip` and without; then the codecs on those bodies (bench/compression:
#          zlib levels 1/6/9, Brotli 1/5/9/11, and a call's cost of gzip from stored pieces).
# series:  the Central Bank series (plugins/series) at full scale (`lastro sample --scale full`:
#          every series from its first SGS date): the whole history of SGS 11 ingested (its
#          10-year window files, seconds and peak memory) beside sqlite3 importing the same rows
#          from one CSV; then, uncached (response_cache_mb: 0), at 32 connections for DURATION
#          seconds (default 5): a 500-row page of 11, 11 compounded per year over its whole
#          history, a 500-day page of the CDI with its factors, and three series aligned by
#          month, beside the bare endpoint (and the bare endpoint sending as many bytes as the
#          500-row page, and a one-row call: the floors). Issue 45 asks p99 under 5 ms and the
#          ingest under 1 s.
# companies: CVM's listed companies (plugins/companies) at full scale, the plugin alone: a
#          full-size FRE year ingested beside sqlite3's .import of its members; the companies'
#          operations uncached at 32 connections beside the bare endpoint (DURATION s, default 5).
# stocks:  B3's listed stocks (plugins/stocks, with companies) at full scale: a full-size yearly
#          COTAHIST (about 2.2 million records) ingested beside a plain fixed-width load of the same
#          file (awk cutting every quote record into fields, piped to sqlite3's .import); then
#          /v1/acoes with a filter and a sort and a year of adjusted cotacoes, uncached at 32
#          connections, beside the bare endpoint (DURATION s, default 5).
# daily:   CVM's daily fund reports (cvm.inf_diario_fi, plugins/series): the full-size month of
#          `lastro sample --scale full` (2026-09, about 565,000 rows) ingested into an empty
#          database (seconds, peak memory, the bytes per million rows), then again unchanged (a
#          republication) and with 113 quotas changed (the month replaced), beside sqlite3
#          importing the same CSV into a bare table with a unique index on (CNPJ, subclass, day);
#          then the scale sample's other months, and, uncached, at 32 connections for DURATION
#          seconds (default 5, after 2 s of warm-up), a year of daily desempenho of one
#          single-series CNPJ, beside the bare endpoint (also sending the page's bytes), a
#          one-row call of SGS 433 and a one-row desempenho (the floors). All of it on SQLite,
#          then on PostgreSQL (the pgsql cluster; its partitions, the slowest statements of each
#          ingest and the partition swap's time, from its log). The issue asks the ingest within
#          2x of sqlite3, under 200 MB, and p99 under 5 ms.
# scale:   (bench/scale/) every /v1 operation of every loaded plugin, uncached, on MONTHS (default
#          120) full-size months, each with its own spread of parameters drawn from the data,
#          DURATION seconds each (default 5) at 32 connections, beside the bare endpoint, on
#          SQLite and on PostgreSQL (DATABASES, default "sqlite pgsql"); a markdown table each,
#          with the database's size. About a quarter of an hour, so not part of `all`.
# profile: (not part of `all`) one operation's instructions under callgrind: URL (default
#          /v1/fundos?limit=100), CALLS (default 200) calls, MONTHS (default 1) full-size months.
# soak:    (bench/soak.sh, issue 51; not part of `all`, not in CI) lastrod on the sample for
#          SOAK_MINUTES (default 30) at SOAK_LOAD (default 0.8) of its capacity of billed calls
#          (wrk at 32 connections, DURATION s, on /v1/fundos?limit=10), paced by
#          bench/soak_client.cpp, beside ABUSERS (default 8) connections of each abusive kind:
#          never-reading, half-closing, CRLF flood, slowloris. Checks: resident memory flat
#          (sampled every 10 s), no 5xx, /health answered every second, and the credits charged
#          to the soak's keys (lastro keys usage; a key per population of clients) equal to the
#          X-Credits-Charged of the answers received whole. Exit 1 when one fails. ./dev passes only its own variables into the build
#          root, so the knobs also go as arguments: ./dev bench soak SOAK_MINUTES=2 ABUSERS=2.
#
# parsing: (not part of `all`) the CPU of framing one request head, lastrod's framer
#          (core/transport/wire_request.cpp) beside Boost.Beast's request_parser with the same
#          limits, each giving what the pipeline reads; whole heads and heads in 16-byte reads.
#
# BEFORE=<revision> (`./dev bench load BEFORE=main~3`): latency, load and pgsql run that
# revision's lastrod (built once in build/before/<commit>, a git worktree) before each of this
# tree's runs, under "-- before" and "-- after" lines: a change measured side by side in one run.
#
# Ports: lastrod listens on BENCH_PORT (default 18080) and BENCH_PORT + 1, the bare endpoint on
# BENCH_PORT + 10 and + 11, PostgreSQL on BENCH_PORT + 352; set BENCH_PORT to run two benchmarks
# side by side.
#
# lastrod and the bare endpoint run with the same number of threads (THREADS, default two per
# core: what lastrod's `threads: auto` gives on SQLite), except in pgsql (above).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
what=${1:-all}
# Knobs also as arguments (./dev passes only its own variables into the build root):
# ./dev bench load BEFORE=HEAD~3.
for arg in "${@:2}"; do
    case "$arg" in [A-Z_]*=*) export "${arg?}" ;; esac
done
requests=${REQUESTS:-100000}
duration=${DURATION:-10}
threads=${THREADS:-$((2 * $(nproc)))}
preset=release
api_port=${BENCH_PORT:-18080}
api_port2=$((api_port + 1))
bare_port=$((api_port + 10))
bare_port2=$((api_port + 11))
pg_port=$((api_port + 352))
say() { printf 'bench: %s\n' "$*" >&2; }
case "$what" in memory | ingest | latency | load | pgsql | pgfloor | parsing | industry | compression | series | daily | companies | stocks | scale | profile | soak | all) ;; *)
    say "usage: ./dev bench [memory|ingest|latency|load|pgsql|pgfloor|parsing|industry|compression|series|daily|companies|stocks|scale|profile|soak|all]"
    exit 2
    ;;
esac

cmake --preset "$preset" >/dev/null
# latency, load, pgsql and parsing read the funds plugin alone: the others are not built for them.
case "$what" in
latency | load | pgsql | parsing) targets="lastrod lastro lastro-funds bare_endpoint request_parsing" ;;
*) targets="lastrod lastro lastro-funds lastro-industry lastro-series lastro-companies lastro-stocks bare_endpoint request_parsing compression" ;;
esac
# shellcheck disable=SC2086 # the targets are words
cmake --build --preset "$preset" --target $targets >/dev/null
bin="$repo/build/$preset/bin"
plugins_dir="$repo/build/$preset/plugins"
bare_bin=$bin # always this tree's, also beside BEFORE's lastrod

work=$(mktemp -d)
chmod 755 "$work" # the PostgreSQL cluster of `pgsql` runs as its own user
pg_bin=/usr/lib/postgresql/17/bin
pg_stop() {
    if [ -f "$work/pg/data/postmaster.pid" ]; then
        as_postgres "$pg_bin/pg_ctl" -D "$work/pg/data" stop -m fast >/dev/null 2>&1 || true
    fi
}
trap 'pg_stop; kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# BEFORE=<revision>: that revision's lastrod, lastro and plugins, built once in its own git
# worktree (build/before/<commit>, its own release build), run by latency, load and pgsql before
# each of this tree's runs: the two side by side in one invocation, on the same sample.
before_bin="" before_plugins="" before_name="" build_tag=""
if [ -n "${BEFORE:-}" ]; then
    before_commit=$(git -C "$repo" rev-parse --verify "${BEFORE}^{commit}") || {
        say "BEFORE=$BEFORE: not a revision of this repository"
        exit 2
    }
    before_name="$BEFORE ($(git -C "$repo" rev-parse --short "$before_commit"))"
    before_src="$repo/build/before/$before_commit"
    if [ ! -d "$before_src" ]; then
        git -C "$repo" worktree add --detach "$before_src" "$before_commit" >/dev/null 2>&1 || {
            say "could not check out $before_name into $before_src"
            exit 1
        }
    fi
    say "building $before_name in $before_src (release)"
    (cd "$before_src" && cmake --preset "$preset" >/dev/null &&
        cmake --build --preset "$preset" --target lastrod lastro lastro-funds >/dev/null)
    before_bin="$before_src/build/$preset/bin"
    # The funds plugin alone, as this tree's below: the same routes on each side.
    mkdir -p "$work/plugins-before"
    ln -sf "$before_src/build/$preset/plugins/funds.yaml" "$before_src/build/$preset/plugins/liblastro-funds.so" \
        "$work/plugins-before/"
    before_plugins="$work/plugins-before"
fi
# What latency, load and pgsql serve: the funds plugin alone (the only one built for them).
case "$what" in
latency | load | pgsql)
    mkdir -p "$work/plugins-this"
    ln -sf "$plugins_dir/funds.yaml" "$plugins_dir/liblastro-funds.so" "$work/plugins-this/"
    plugins_dir="$work/plugins-this"
    ;;
esac

# A directory with the funds plugin alone, for the benchmarks that measure funds without the
# datasets derived from it.
funds_only_plugins() {
    mkdir -p "$work/plugins-funds"
    ln -sf "$repo/build/$preset/plugins/funds.yaml" "$repo/build/$preset/plugins/liblastro-funds.so" \
        "$work/plugins-funds/"
    echo "$work/plugins-funds"
}

# A deployment in $work/$1 (SQLite, synchronous ${2:-full}, response cache ${3:-32} MB, the
# plugins of ${4:-the build}), migrated; sets LASTRO_CONFIG.
deploy() {
    local dir="$work/$1${build_tag:+-$build_tag}" # each build compared on a database of its own
    mkdir -p "$dir"
    cat >"$dir/lastro.yaml" <<YAML
server: {listen: "127.0.0.1:$api_port", threads: $threads, base_url: "http://127.0.0.1:$api_port",
         response_cache_mb: ${3:-32}}
data_dir: $dir/data
database: {backend: sqlite, sqlite: {synchronous: ${2:-full}}}
plugins: {manifest_dirs: [${4:-$plugins_dir}]}
log: {access_log: off}
YAML
    export LASTRO_CONFIG="$dir/lastro.yaml"
    "$bin/lastro" db migrate 2>/dev/null
}

# Sample data of the default scale, generated once per run.
sample() {
    if [ ! -d "$work/sample" ]; then
        "$bin/lastro" sample --out "$work/sample" 2>/dev/null
    fi
}

ingest_sample() {
    sample
    local s="$work/sample"
    "$bin/lastro" ingest cvm.registro_fundo_classe "$s/registro_fundo_classe.zip" 2>/dev/null
    "$bin/lastro" ingest cvm.inf_mensal_fidc "$s"/inf_mensal_fidc_*.zip 2>/dev/null
    "$bin/lastro" ingest cvm.cda_fi "$s"/cda_fi_*.zip 2>/dev/null
}

# Runs "$@" with BEFORE's binaries and plugins first, when set, then with this tree's, each
# under a line naming the build.
each_build() {
    if [ -n "$before_bin" ]; then
        local this_bin=$bin this_plugins=$plugins_dir
        printf -- '-- before: %s\n' "$before_name"
        bin=$before_bin plugins_dir=$before_plugins build_tag=before
        "$@"
        bin=$this_bin plugins_dir=$this_plugins build_tag=after
        printf -- '-- after: this tree\n'
    fi
    "$@"
    build_tag=""
}

rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
# CPU time the process has used, user and system, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Microseconds of CPU per request between two cpu_ticks readings over `requests`.
cpu_per_call() { awk -v a="$1" -v b="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", (b - a) * 1e6 / hz / n}'; }
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }
# CPU clock ticks of process $1's threads named $2 (lastrod names its ledger writer
# "ledger-writer" and its connection loops "http-worker").
thread_ticks() {
    local t sum=0
    for t in /proc/"$1"/task/*; do
        [ "$(cat "$t/comm" 2>/dev/null)" = "$2" ] && sum=$((sum + $(awk '{print $14 + $15}' "$t/stat")))
    done
    echo "$sum"
}

start_servers() {
    "$bin/lastrod" 2>"$work/lastrod.log" &
    lastrod_pid=$!
    "$bare_bin/bare_endpoint" "$bare_port" "$threads" 2>/dev/null &
    bare_pid=$!
    for _ in $(seq 50); do
        curl -fs -o /dev/null "http://127.0.0.1:$api_port/health" && break
        sleep 0.1
    done
}

stop_servers() {
    kill "$lastrod_pid" "$bare_pid" 2>/dev/null || true
    wait "$lastrod_pid" "$bare_pid" 2>/dev/null || true
}

# wrk for DURATION seconds at CONNECTIONS (default 32) with a script (default bench/auth.lua):
# "requests req/s p50 p99 errors", where errors counts non-2xx answers and socket errors
# (connect, read, write, timeout: a request unanswered after wrk_timeout); wrk's own lines for
# them go to standard error.
wrk_timeout=2s
wrk_once() {
    local out connections=${2:-32} script=${3:-bench/auth.lua} wrk_threads=2
    [ "$connections" -lt 2 ] && wrk_threads=1
    out=$(wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --timeout "$wrk_timeout" --latency -s "$script" "$1")
    # Which errors, when there are any (the table only counts them): on standard error.
    echo "$out" | grep -E 'Non-2xx|Socket errors' | sed "s|^ *|bench: wrk at $1: |" >&2 || true
    echo "$(echo "$out" | awk '/requests in/ {print $1}') $(echo "$out" | awk '/Requests\/sec/ {print $2}')" \
        "$(echo "$out" | awk '$1 == "50%" {print $2}') $(echo "$out" | awk '$1 == "99%" {print $2}')" \
        "$(echo "$out" | awk '/Non-2xx/ {n += $NF} /Socket errors/ {gsub(/,/, ""); n += $4 + $6 + $8 + $10}
            END {print n + 0}')"
}

memory() {
    deploy memory full "${CACHE_MB:-32}"
    sample
    "$bin/lastro" ingest cvm.registro_fundo_classe "$work/sample/registro_fundo_classe.zip" 2>/dev/null
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    start_servers
    local l_start b_start sent=0 l_rps l_p99 b_sent=0 b_rps b_p99 r
    l_start=$(rss $lastrod_pid)
    b_start=$(rss $bare_pid)
    # wrk runs by duration: repeat until `requests` have been sent.
    while [ "$sent" -lt "$requests" ]; do
        read -r n l_rps _ l_p99 _ < <(wrk_once "http://127.0.0.1:$api_port/v1/fundos?q=credito&limit=25")
        sent=$((sent + n))
    done
    while [ "$b_sent" -lt "$requests" ]; do
        read -r n b_rps _ b_p99 _ < <(wrk_once "http://127.0.0.1:$bare_port/v1/fundos?q=credito&limit=25")
        b_sent=$((b_sent + n))
    done
    printf '%-14s %10s %10s %10s %12s %12s %12s\n' server requests req/s p99 rss_start_kB rss_end_kB peak_kB
    printf '%-14s %10s %10s %10s %12s %12s %12s\n' lastrod "$sent" "$l_rps" "$l_p99" "$l_start" "$(rss $lastrod_pid)" "$(hwm $lastrod_pid)"
    printf '%-14s %10s %10s %10s %12s %12s %12s\n' bare_pistache "$b_sent" "$b_rps" "$b_p99" "$b_start" "$(rss $bare_pid)" "$(hwm $bare_pid)"
    r=$(rss $lastrod_pid)
    awk -v a="$l_rps" -v b="$b_rps" -v r="$r" -v s="$(rss $bare_pid)" 'BEGIN {
        printf "ratio lastrod/bare: throughput %.3f, resident memory %.2f\n", a / b, r / s
        printf "lastrod resident after the load: %.1f MB (requirement: under 100 MB)\n", r / 1024 }'
    stop_servers
}

# Seconds and peak kB of a command: "seconds peak_kB" (GNU time).
measure() {
    /usr/bin/time -f '%e %M' -o "$work/time.out" "$@" >/dev/null 2>"$work/measure.err" || {
        cat "$work/measure.err" >&2
        return 1
    }
    cat "$work/time.out"
}

ingest() {
    deploy ingest full 32 "$(funds_only_plugins)"
    say "generating a full-size month (lastro sample --scale full)"
    "$bin/lastro" sample --scale full --out "$work/full" 2>/dev/null
    local zip csv_dir="$work/full-csv" rows l_s l_kb s_s s_kb
    zip=$(ls "$work/full"/inf_mensal_fidc_*.zip | head -1)
    mkdir -p "$csv_dir"
    unzip -q -o "$zip" -d "$csv_dir"
    rows=$(cat "$csv_dir"/*.csv | wc -l)
    read -r l_s l_kb < <(measure "$bin/lastro" ingest cvm.inf_mensal_fidc "$zip")
    # The reference: sqlite3 itself loading the same CSVs into bare tables (no encoding
    # conversion, no validation, no normalization), one table per member, in one process.
    {
        echo ".mode csv"
        echo ".separator ;"
        for f in "$csv_dir"/*.csv; do echo ".import '$f' \"$(basename "$f" .csv)\""; done
    } >"$work/import.sql"
    read -r s_s s_kb < <(measure sqlite3 "$work/import.db" ".read $work/import.sql")
    printf '%-22s %10s %10s %12s\n' loader lines seconds peak_kB
    printf '%-22s %10s %10s %12s\n' "lastro ingest" "$rows" "$l_s" "$l_kb"
    printf '%-22s %10s %10s %12s\n' "sqlite3 .import" "$rows" "$s_s" "$s_kb"
    awk -v a="$l_s" -v b="$s_s" -v m="$l_kb" 'BEGIN {
        printf "ratio lastro/sqlite3: time %.2f (goal: within 2x); lastro peak %.1f MB (goal: under 200 MB)\n",
            a / b, m / 1024 }'
}

# Snapshot and cotas of one class at 1 and 32 connections, beside the bare endpoint; $1 is
# the response cache in MB (0: off).
latency_once() {
    deploy "latency-$1" full "$1"
    ingest_sample
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    start_servers
    # A class with reports: the first row of the screening of the latest month.
    local class_id label="cached"
    [ "$1" = 0 ] && label="uncached"
    class_id=$(curl -fs -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port/v1/screening?limit=1" |
        grep -o '"class_id":"[0-9a-f-]*"' | head -1 | cut -d'"' -f4)
    [ -n "$class_id" ] || {
        say "no class found through /v1/screening"
        exit 1
    }
    local path c
    for c in 1 32; do
        for path in "/v1/classes/$class_id/snapshot" "/v1/classes/$class_id/cotas"; do
            read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port$path" "$c")
            printf '%-26s %6s %10s %10s %10s %10s %8s\n' "${path##*/} ($label)" "$c" "$n" "$rps" "$p50" "$p99" "$bad"
        done
        read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare" "$c")
        printf '%-26s %6s %10s %10s %10s %10s %8s\n' "bare_pistache" "$c" "$n" "$rps" "$p50" "$p99" "$bad"
    done
    stop_servers
}

latency() {
    printf '%-26s %6s %10s %10s %10s %10s %8s\n' endpoint conns requests req/s p50 p99 non2xx
    each_build latency_once 32
    each_build latency_once 0
}

# One lastrod (synchronous $1, response cache $2 MB) beside the bare endpoint at 1 and 32
# connections.
load_once() {
    local label="$1"
    [ "$2" = 0 ] && label="$1, uncached"
    deploy "load-$1-$2" "$1" "$2"
    sample
    "$bin/lastro" ingest cvm.registro_fundo_classe "$work/sample/registro_fundo_classe.zip" 2>/dev/null
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    start_servers
    local cnpj
    cnpj=$(curl -fs -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port/v1/fundos?limit=1" |
        grep -o '"cnpj":"[0-9]*"' | head -1 | cut -d'"' -f4)
    [ -n "$cnpj" ] || {
        say "no fund found through /v1/fundos"
        exit 1
    }
    local c l_rps b_rps t0 w0 h0 l_cpu b_cpu
    for c in 1 32; do
        t0=$(cpu_ticks "$lastrod_pid")
        w0=$(thread_ticks "$lastrod_pid" ledger-writer)
        h0=$(thread_ticks "$lastrod_pid" http-worker)
        read -r n l_rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port/v1/resolve?cnpj=$cnpj" "$c")
        l_cpu=$(cpu_per_call "$t0" "$(cpu_ticks "$lastrod_pid")" "$n")
        printf '%-28s %6s %10s %10s %10s %10s %8s %12s\n' "resolve ($label)" "$c" "$n" "$l_rps" "$p50" "$p99" "$bad" "$l_cpu"
        printf '%-28s %6s %54s %12s\n' "  of it: ledger writer" "" "" \
            "$(cpu_per_call "$w0" "$(thread_ticks "$lastrod_pid" ledger-writer)" "$n")"
        printf '%-28s %6s %54s %12s\n' "  of it: http workers" "" "" \
            "$(cpu_per_call "$h0" "$(thread_ticks "$lastrod_pid" http-worker)" "$n")"
        t0=$(cpu_ticks "$bare_pid")
        read -r n b_rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare" "$c")
        b_cpu=$(cpu_per_call "$t0" "$(cpu_ticks "$bare_pid")" "$n")
        printf '%-28s %6s %10s %10s %10s %10s %8s %12s\n' "bare_pistache" "$c" "$n" "$b_rps" "$p50" "$p99" "$bad" "$b_cpu"
        awk -v a="$l_rps" -v b="$b_rps" -v c="$c" -v la="$l_cpu" -v lb="$b_cpu" 'BEGIN {
            printf "ratio lastrod/bare at %d connections: throughput %.3f (goal at 32: 0.7), CPU per call %.1f times\n",
                c, a / b, la / lb }'
    done
    if [ "$2" != 0 ] && [ "$1" = full ]; then
        # The host alone at 32 connections: HTTP, routing and a JSON body, without key, billing
        # or database read. What lastrod costs before any of the work a billed call adds.
        t0=$(cpu_ticks "$lastrod_pid")
        read -r n l_rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port/health" 32)
        l_cpu=$(cpu_per_call "$t0" "$(cpu_ticks "$lastrod_pid")" "$n")
        printf '%-28s %6s %10s %10s %10s %10s %8s %12s\n' "/health (host alone)" 32 "$n" "$l_rps" "$p50" "$p99" "$bad" "$l_cpu"
        awk -v a="$l_rps" -v b="$b_rps" 'BEGIN {
            printf "ratio lastrod /health / bare at 32 connections: %.3f (bare: its run above)\n", a / b }'
        stop_servers
        # The floor of any billed design on this machine: the bare endpoint answering through
        # one writer thread, with nothing written, then after a group's append and fdatasync.
        floor_once "bare + hand-over" - "$b_rps"
        floor_once "bare + group fdatasync" "$work/journal" "$b_rps"
        return
    fi
    stop_servers
}

# The bare endpoint in group-commit mode ($2: its journal, or - for none) at 32 connections,
# and its throughput over $3 (the bare endpoint's, in the same run).
floor_once() {
    local pid t0 n rps p50 p99 bad cpu
    "$bare_bin/bare_endpoint" "$bare_port2" "$threads" "$2" 2>/dev/null &
    pid=$!
    for _ in $(seq 100); do
        curl -fs -o /dev/null "http://127.0.0.1:$bare_port2/" && break
        sleep 0.1
    done
    t0=$(cpu_ticks "$pid")
    read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port2/v1/bare" 32)
    cpu=$(cpu_per_call "$t0" "$(cpu_ticks "$pid")" "$n")
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    printf '%-28s %6s %10s %10s %10s %10s %8s %12s\n' "$1" 32 "$n" "$rps" "$p50" "$p99" "$bad" "$cpu"
    awk -v a="$rps" -v b="$3" -v l="$1" 'BEGIN {
        printf "ratio %s / bare at 32 connections: %.3f (bare: its run above)\n", l, a / b }'
}

load() {
    printf '%-28s %6s %10s %10s %10s %10s %8s %12s\n' server conns requests req/s p50 p99 errors cpu_us/call
    each_build load_once full 32
    each_build load_once full 0
    each_build load_once normal 32
}

# PostgreSQL refuses to run as root: as root, its commands run as the postgres user.
as_postgres() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# A durable cluster (the server's defaults: fsync and synchronous_commit on) in $work/pg on
# port $pg_port (BENCH_PORT + 352), with a database `lastro`; PG_OPTIONS, if set, are more
# server options (scale counts statements with pg_stat_statements), and so are PG_SETTINGS, the
# caller's (`PG_SETTINGS="-c shared_buffers=4GB" ./dev bench scale`).
pg_start() {
    local dir="$work/pg"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_postgres "$pg_bin/initdb" -D "$dir/data" -U postgres -E UTF8 --locale=C >"$work/initdb.log" 2>&1 || {
        cat "$work/initdb.log" >&2
        exit 1
    }
    as_postgres "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
        "-p $pg_port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c max_connections=120 ${PG_OPTIONS:-} ${PG_SETTINGS:-}" \
        start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    "$pg_bin/createdb" -h 127.0.0.1 -p $pg_port -U postgres lastro
}

# Sum of the CPU ticks of this run's cluster: its postmaster and every child (each connection's
# backend, the WAL writer, the checkpointer, autovacuum), not other clusters of the postgres user
# that may run on the machine (a test suite's).
pg_ticks() {
    local main pid sum=0
    main=$(head -1 "$work/pg/data/postmaster.pid" 2>/dev/null) || main=""
    [ -n "$main" ] || {
        echo 0
        return
    }
    for pid in "$main" $(pgrep -P "$main"); do
        sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$sum"
}

# The cluster's CPU ticks by kind of process, one "kind ticks" line each: the backends (lastrod's
# connections), the WAL writer, the checkpointer, the background writer, autovacuum (its
# launcher and live workers), and "exited": children the postmaster has reaped since it
# started (autovacuum workers that finished), which pg_ticks cannot see.
pg_ticks_by_kind() {
    local main pid title kind
    main=$(head -1 "$work/pg/data/postmaster.pid" 2>/dev/null) || return 0
    awk '{print "exited", $16 + $17; print "postmaster", $14 + $15}' "/proc/$main/stat"
    for pid in $(pgrep -P "$main"); do
        title=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || continue
        case "$title" in
        *walwriter*) kind=walwriter ;;
        *checkpointer*) kind=checkpointer ;;
        *"background writer"*) kind=bgwriter ;;
        *autovacuum*) kind=autovacuum ;;
        *"postgres: postgres "*) kind=backends ;;
        *) kind=other ;;
        esac
        awk -v k="$kind" '{print k, $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true
    done
}
# µs of CPU per call by kind between two pg_ticks_by_kind outputs ($1, $2 files) over $3 calls.
pg_cpu_by_kind() {
    awk -v n="$3" -v hz="$(getconf CLK_TCK)" '
        FNR == NR { a[$1] += $2; next } { b[$1] += $2; seen[$1] = 1 }
        END { line = ""
              for (k in seen) line = line sprintf(" %s %.1f", k, (b[k] - a[k]) * 1e6 / hz / n)
              print "PostgreSQL CPU per call by process (µs):" line }' "$1" "$2"
}

# lastrod instance $1 on port $2, on the cluster, with a response cache of $3 MB (default: the
# configuration's default); sets started_pid.
start_pgsql_lastrod() {
    local dir="$work/pgsql-$1"
    mkdir -p "$dir"
    cat >"$dir/lastro.yaml" <<YAML
server: {listen: "127.0.0.1:$2", base_url: "http://127.0.0.1:$2", instance: "$1"${3:+, response_cache_mb: $3}}
data_dir: $dir/data
database: {backend: pgsql, pgsql: {conninfo: "host=127.0.0.1 port=$pg_port dbname=lastro user=postgres"}}
plugins: {manifest_dirs: [$plugins_dir]}
# Every instance of one database signs cursors with the secret the migration made.
cursors: {secret_file: $work/pgsql-cli/data/cursor.key}
log: {access_log: off}
YAML
    LASTRO_CONFIG="$dir/lastro.yaml" "$bin/lastrod" >/dev/null 2>"$dir/lastrod.log" &
    started_pid=$!
    for _ in $(seq 100); do
        curl -fs -o /dev/null "http://127.0.0.1:$2/health" && return
        sleep 0.1
    done
    say "lastrod $1 did not start: $(cat "$dir/lastrod.log")"
    exit 1
}

pgsql() {
    each_build pgsql_once
}

pgsql_once() {
    rm -rf "$work/pg" "$work"/pgsql-*  # a cluster of its own for each build compared
    pg_start
    deploy pgsql-cli
    cat >"$LASTRO_CONFIG" <<YAML
data_dir: $work/pgsql-cli/data
database: {backend: pgsql, pgsql: {conninfo: "host=127.0.0.1 port=$pg_port dbname=lastro user=postgres"}}
plugins: {manifest_dirs: [$plugins_dir]}
YAML
    "$bin/lastro" db migrate 2>/dev/null
    sample
    "$bin/lastro" ingest cvm.registro_fundo_classe "$work/sample/registro_fundo_classe.zip" 2>/dev/null
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    local a b bare cnpj t0 p0 n rps p50 p99 bad l_cpu pg_cpu
    start_pgsql_lastrod bench-a "$api_port"
    a=$started_pid
    "$bare_bin/bare_endpoint" "$bare_port" "$threads" 2>/dev/null &
    bare=$!
    cnpj=$(curl -fs -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port/v1/fundos?limit=1" |
        grep -o '"cnpj":"[0-9]*"' | head -1 | cut -d'"' -f4)
    [ -n "$cnpj" ] || {
        say "no fund found through /v1/fundos"
        exit 1
    }
    local url="/v1/resolve?cnpj=$cnpj"
    printf '%-30s %6s %10s %10s %10s %10s %8s %12s %12s\n' server conns requests req/s p50 p99 errors \
        lastrod_us pgsql_us
    t0=$(cpu_ticks "$a")
    p0=$(pg_ticks)
    pg_ticks_by_kind >"$work/pg-kinds-0"
    read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port$url" 32)
    l_cpu=$(cpu_per_call "$t0" "$(cpu_ticks "$a")" "$n")
    pg_cpu=$(cpu_per_call "$p0" "$(pg_ticks)" "$n")
    pg_ticks_by_kind >"$work/pg-kinds-1"
    printf '%-30s %6s %10s %10s %10s %10s %8s %12s %12s\n' "resolve (1 instance)" 32 "$n" "$rps" "$p50" "$p99" \
        "$bad" "$l_cpu" "$pg_cpu"
    local one=$rps n_one=$n
    # Two instances on the one database, 16 connections each, at the same time; the CPU per call
    # is both lastrods' (and the cluster's) over both instances' calls.
    start_pgsql_lastrod bench-b "$api_port2"
    b=$started_pid
    local tb0
    t0=$(cpu_ticks "$a")
    tb0=$(cpu_ticks "$b")
    p0=$(pg_ticks)
    wrk_once "http://127.0.0.1:$api_port2$url" 16 >"$work/wrk-b.out" &
    local wrk_b=$!
    read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port$url" 16)
    wait "$wrk_b"
    local t1 tb1 p1 n_a=$n
    t1=$(cpu_ticks "$a")
    tb1=$(cpu_ticks "$b")
    p1=$(pg_ticks)
    printf '%-30s %6s %10s %10s %10s %10s %8s\n' "resolve (instance a of 2)" 16 "$n" "$rps" "$p50" "$p99" "$bad"
    local both=$rps
    read -r n rps p50 p99 bad <"$work/wrk-b.out"
    printf '%-30s %6s %10s %10s %10s %10s %8s\n' "resolve (instance b of 2)" 16 "$n" "$rps" "$p50" "$p99" "$bad"
    both=$(awk -v a="$both" -v b="$rps" 'BEGIN {printf "%.2f", a + b}')
    l_cpu=$(cpu_per_call 0 $((t1 - t0 + tb1 - tb0)) $((n_a + n)))
    pg_cpu=$(cpu_per_call "$p0" "$p1" $((n_a + n)))
    printf '%-30s %6s %10s %10s %10s %10s %8s %12s %12s\n' "resolve (2 instances, both)" 32 $((n_a + n)) "$both" \
        "" "" "" "$l_cpu" "$pg_cpu"
    pg_cpu_by_kind "$work/pg-kinds-0" "$work/pg-kinds-1" "$n_one"
    read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare" 32)
    printf '%-30s %6s %10s %10s %10s %10s %8s\n' "bare_pistache" 32 "$n" "$rps" "$p50" "$p99" "$bad"
    awk -v o="$one" -v t="$both" -v b="$rps" 'BEGIN {
        printf "ratio lastrod/bare at 32 connections on PostgreSQL: one instance %.3f, two instances together %.3f\n",
            o / b, t / b }'
    kill "$a" "$b" "$bare" 2>/dev/null || true
    wait "$a" "$b" "$bare" 2>/dev/null || true
    pg_stop
}

# The industry aggregates on MONTHS full-size months (see the header).
industry() {
    local months=${MONTHS:-120} dir="$work/industry-full"
    duration=${DURATION:-5}
    deploy industry full 32
    say "generating $months full-size months (lastro sample --scale full --months $months)"
    local t0 t1
    t0=$(date +%s.%N)
    "$bin/lastro" sample --scale full --months "$months" --out "$dir" 2>/dev/null
    t1=$(date +%s.%N)
    printf 'sample: %s months, %s MB of zips, written in %.1f s\n' "$months" \
        "$(du -cm "$dir"/inf_mensal_fidc_*.zip | awk 'END {print $1}')" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')"
    "$bin/lastro" ingest cvm.registro_fundo_classe "$dir/registro_fundo_classe.zip" 2>/dev/null
    # Each ingest line ends its release with the seconds its ingester or derivation took.
    "$bin/lastro" ingest cvm.inf_mensal_fidc "$dir"/inf_mensal_fidc_*.zip 2>&1 | grep ' s): ' |
        sed -E 's/ rows read.*//; s/^/ingest: /' >&2
    local db="$work/industry/data/lastro.db"
    printf '%-58s %10s\n' step seconds
    read -r d_s _ < <(measure "$bin/lastro" derive industry.fidc_aggregates)
    printf '%-58s %10s\n' "lastro derive industry.fidc_aggregates ($months months)" "$d_s"
    read -r q_s _ < <(measure sqlite3 "$db" "SELECT month, count(*), sum(nav), sum(assets_total),
        sum(receivables_net), sum(investor_count) FROM funds_fidc_report GROUP BY month;" )
    printf '%-58s %10s\n' "sqlite3: one GROUP BY month over the reports" "$q_s"
    read -r j_s _ < <(measure sqlite3 "$db" "SELECT month, count(*), sum(nav), sum(length(published_json)),
        sum(length(segments_json)), sum(length(bands_json)) FROM funds_fidc_report GROUP BY month;")
    printf '%-58s %10s\n' "sqlite3: the same with the JSON documents" "$j_s"
    awk -v a="$d_s" -v b="$j_s" -v n="$months" 'BEGIN {
        printf "ratio derive / plain aggregate with documents: %.1f; derive per month: %.3f s\n", a / b, a / n }'
    # A republished month: the last one again, derived with its neighbour and the rankings after.
    local last
    last=$(ls "$dir"/inf_mensal_fidc_*.zip | tail -1)
    "$bin/lastro" ingest cvm.inf_mensal_fidc "$last" 2>&1 | grep ' s): ' | sed -E 's/ rows read.*//; s/^/republished: /'
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    local cache label indicator n rps p50 p99 bad
    printf '%-44s %6s %10s %10s %10s %10s %8s\n' endpoint conns requests req/s p50 p99 non2xx
    for cache in 32 0; do
        label=cached
        [ "$cache" = 0 ] && label=uncached
        sed -i -E "s/response_cache_mb: [0-9]+/response_cache_mb: $cache/" "$LASTRO_CONFIG"
        start_servers
        for indicator in resumo fluxos segmentos ativos prazos rentabilidade concentracao anbima \
            anbima/segmentos distribuicao-pl participantes concentracao-top; do
            read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port/v1/industria?indicador=$indicator&months=120" 32)
            printf '%-44s %6s %10s %10s %10s %10s %8s\n' "$indicator x120 ($label)" 32 "$n" "$rps" "$p50" "$p99" "$bad"
        done
        read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port/v1/industria/gestoras/ranking?months=120&limit=20" 32)
        printf '%-44s %6s %10s %10s %10s %10s %8s\n' "ranking x120 ($label)" 32 "$n" "$rps" "$p50" "$p99" "$bad"
        read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare" 32)
        printf '%-44s %6s %10s %10s %10s %10s %8s\n' "bare_pistache" 32 "$n" "$rps" "$p50" "$p99" "$bad"
        stop_servers
    done
}

# Answers in gzip beside the same answers plain, in one run (issue 50): a small one (/v1/resolve)
# and the industry's large ones over MONTHS full-size months (default 120), at 32 connections,
# DURATION seconds each (default 10), the response cache on (the default, where the answer's
# pieces are deflated once). Then the codecs on those bodies (bench/compression.cpp).
compression() {
    local months=${MONTHS:-120} dir="$work/compression-full"
    deploy compression full 32
    say "generating $months full-size months (lastro sample --scale full --months $months) and ingesting them"
    "$bin/lastro" sample --scale full --months "$months" --out "$dir" 2>/dev/null
    "$bin/lastro" ingest cvm.registro_fundo_classe "$dir/registro_fundo_classe.zip" 2>/dev/null
    "$bin/lastro" ingest cvm.inf_mensal_fidc "$dir"/inf_mensal_fidc_*.zip 2>/dev/null
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    printf 'wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")\nwrk.headers["Accept-Encoding"] = "gzip"\n' \
        >"$work/auth_gzip.lua"
    start_servers
    local cnpj
    cnpj=$(curl -fs -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port/v1/fundos?limit=1" |
        grep -o '"cnpj":"[0-9]*"' | head -1 | cut -d'"' -f4)
    local target label plain gzip n rps p50 p99 bad plain_rps
    printf '| answer | bytes plain | bytes gzip | plain: req/s, p50, p99 | gzip: req/s, p50, p99 | gzip / plain req/s |\n|---|---|---|---|---|---|\n'
    for target in "/v1/resolve?cnpj=$cnpj" "/v1/industria?indicador=resumo&months=$months" \
        "/v1/industria/gestoras/ranking?months=$months&limit=20"; do
        plain=$(curl -fs -o "$work/body.json" -w '%{size_download}' -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port$target")
        gzip=$(curl -fs -o /dev/null -w '%{size_download}' -H "Authorization: Bearer $BENCH_KEY" -H 'Accept-Encoding: gzip' \
            "http://127.0.0.1:$api_port$target")
        cp "$work/body.json" "$work/body-$plain.json"
        # Unmeasured first (the first connections, the page cache): else the plain half, which
        # runs first, pays the warm-up (one run's plain p99 was 31.7 ms, its gzip one 4.2 ms).
        duration=3 wrk_once "http://127.0.0.1:$api_port$target" 32 >/dev/null
        read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port$target" 32)
        plain_rps=$rps
        label="$rps, $p50, $p99"
        read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port$target" 32 "$work/auth_gzip.lua")
        printf '| %s | %s | %s | %s | %s, %s, %s | %s |\n' "${target%%\?*}${target#*\?}" "$plain" "$gzip" "$label" \
            "$rps" "$p50" "$p99" "$(awk -v a="$rps" -v b="$plain_rps" 'BEGIN {printf "%.3f", a / b}')"
    done
    read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare" 32)
    printf '| bare endpoint | | | %s, %s, %s | | |\n\n' "$rps" "$p50" "$p99"
    stop_servers
    "$bin/compression" "$work"/body-*.json
}

series() {
    local dir="$work/series-full"
    duration=${DURATION:-5}
    deploy series full 0
    "$bin/lastro" sample --scale full --out "$dir" 2>/dev/null
    local files=("$dir"/bcdata.sgs.11_*)
    local rows
    rows=$(cat "${files[@]}" | grep -o '"data"' | wc -l)
    printf '%-58s %10s %10s\n' step seconds peak_kB
    read -r i_s i_kb < <(measure "$bin/lastro" ingest bcb.sgs.11 "${files[@]}")
    printf '%-58s %10s %10s\n' "lastro ingest bcb.sgs.11 (${#files[@]} windows, $rows rows)" "$i_s" "$i_kb"
    # The same rows as one CSV, imported by sqlite3 into a bare table: the floor of any ingest.
    cat "${files[@]}" | grep -o '"data":"[^"]*","valor":"[^"]*"' |
        sed -E 's/"data":"([^"]*)","valor":"([^"]*)"/\1,\2/' >"$work/sgs11.csv"
    read -r q_s q_kb < <(measure sqlite3 "$work/bare.db" "CREATE TABLE o(date TEXT, value TEXT);" ".mode csv" \
        ".import $work/sgs11.csv o" "CREATE UNIQUE INDEX o_i ON o(date);")
    printf '%-58s %10s %10s\n' "sqlite3: .import of the same rows, with a unique index" "$q_s" "$q_kb"
    awk -v a="$i_s" -v b="$q_s" 'BEGIN { printf "ratio lastro ingest / sqlite3 import: %.1f (requirement: ingest under 1 s)\n", a / (b > 0 ? b : 0.01) }'
    local dataset
    for dataset in 12 432 433 4389 4390 4391; do
        "$bin/lastro" ingest "bcb.sgs.$dataset" "$dir"/bcdata.sgs."$dataset"_* >/dev/null 2>&1
    done
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    start_servers
    local n rps p50 p99 bad target bare_rps
    read -r n bare_rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare" 32)
    printf '%-62s %6s %10s %10s %10s %10s %8s %8s\n' endpoint conns requests req/s p50 p99 non2xx vs_bare
    printf '%-62s %6s %10s %10s %10s %10s %8s %8s\n' "bare_pistache" 32 "$n" "$bare_rps" "$p50" "$p99" "$bad" 1.000
    # The floor for an answer of the 500-row page's size: the bare endpoint sending as many bytes.
    local page_bytes
    page_bytes=$(curl -s -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port/v1/macroeconomia/11?limit=500" | wc -c)
    read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare?bytes=$page_bytes" 32)
    printf '%-62s %6s %10s %10s %10s %10s %8s %8s\n' "bare_pistache, $page_bytes bytes" 32 "$n" "$rps" "$p50" "$p99" "$bad" \
        "$(awk -v a="$rps" -v b="$bare_rps" 'BEGIN {printf "%.3f", a / b}')"
    # The billed path's own cost with this plugin: one row of a small series.
    for target in "/v1/macroeconomia/433?limit=1" "/v1/macroeconomia/11?limit=500" "/v1/macroeconomia/11?frequency=yearly" \
        "/v1/benchmarks/cdi/serie-diaria?limit=500" "/v1/macroeconomia?series=11,12,433&frequency=monthly&limit=500"; do
        read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port$target" 32)
        printf '%-62s %6s %10s %10s %10s %10s %8s %8s\n' "$target (uncached)" 32 "$n" "$rps" "$p50" "$p99" "$bad" \
            "$(awk -v a="$rps" -v b="$bare_rps" 'BEGIN {printf "%.3f", a / b}')"
    done
    stop_servers
}

# targets_beside_bare FROM TO TARGET...: each target of the running lastrod uncached at 32
# connections, beside the bare endpoint and the bare endpoint sending the largest target's bytes;
# FROM in a target's name is shown as TO (a CNPJ, a ticker).
targets_beside_bare() {
    local from=$1 to=$2
    shift 2
    local n rps p50 p99 bad target bare_rps page_bytes=0 bytes
    for target in "$@"; do
        bytes=$(curl -s -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port$target" | wc -c)
        [ "$bytes" -gt "$page_bytes" ] && page_bytes=$bytes
    done
    read -r n bare_rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare" 32)
    printf '%-66s %6s %10s %10s %10s %10s %8s %8s\n' endpoint conns requests req/s p50 p99 non2xx vs_bare
    printf '%-66s %6s %10s %10s %10s %10s %8s %8s\n' "bare_pistache" 32 "$n" "$bare_rps" "$p50" "$p99" "$bad" 1.000
    read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$bare_port/v1/bare?bytes=$page_bytes" 32)
    printf '%-66s %6s %10s %10s %10s %10s %8s %8s\n' "bare_pistache, $page_bytes bytes (the largest page)" 32 "$n" "$rps" \
        "$p50" "$p99" "$bad" "$(awk -v a="$rps" -v b="$bare_rps" 'BEGIN {printf "%.3f", a / b}')"
    for target in "$@"; do
        bytes=$(curl -s -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port$target" | wc -c)
        read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port$target" 32)
        printf '%-66s %6s %10s %10s %10s %10s %8s %8s\n' "${target/$from/$to} ($bytes bytes)" 32 "$n" "$rps" "$p50" \
            "$p99" "$bad" "$(awk -v a="$rps" -v b="$bare_rps" 'BEGIN {printf "%.3f", a / b}')"
    done
}

# CVM's listed companies (plugins/companies) at full scale, the plugin alone: a full-size FRE year
# ingested into an empty database beside sqlite3's .import of its members, then the companies'
# operations uncached at 32 connections beside the bare endpoint (also sending the largest
# page's bytes).
companies() {
    local dir="$work/companies-full" plugins="$work/plugins-companies"
    duration=${DURATION:-5}
    mkdir -p "$plugins"
    ln -sf "$repo/build/$preset/plugins/companies.yaml" "$repo/build/$preset/plugins/liblastro-companies.so" "$plugins/"
    deploy companies full 0 "$plugins"
    "$bin/lastro" sample --scale full --out "$dir" 2>/dev/null
    local year="$dir/fre_cia_aberta_2025.zip" members="$work/fre-members" rows
    mkdir -p "$members"
    unzip -q -o "$year" -d "$members"
    rows=$(cat "$members"/*.csv | wc -l)
    printf '%-66s %10s %10s\n' step seconds peak_kB
    read -r i_s i_kb < <(measure "$bin/lastro" ingest cvm.fre_cia_aberta "$year")
    printf '%-66s %10s %10s\n' "lastro ingest cvm.fre_cia_aberta (2025, $(ls "$members" | wc -l) members, $rows lines)" "$i_s" "$i_kb"
    read -r a_s a_kb < <(measure "$bin/lastro" ingest cvm.fre_cia_aberta "$year")
    printf '%-66s %10s %10s\n' "lastro ingest cvm.fre_cia_aberta again (unchanged)" "$a_s" "$a_kb"
    # The floor: sqlite3 importing every member into a bare table of its own (no conversion,
    # no check, no join, no diff).
    local imports=() member
    for member in "$members"/*.csv; do
        imports+=(".import $member $(basename "$member" .csv)")
    done
    read -r q_s q_kb < <(measure sqlite3 "$work/fre-bare.db" ".mode csv" ".separator ;" "${imports[@]}")
    printf '%-66s %10s %10s\n' "sqlite3: .import of the same members" "$q_s" "$q_kb"
    awk -v a="$i_s" -v b="$q_s" 'BEGIN { printf "ratio lastro ingest / sqlite3 import: %.1f (goal: within 2)\n", a / (b > 0 ? b : 0.01) }'
    "$bin/lastro" ingest cvm.cad_cia_aberta "$dir"/cad_cia_aberta*.csv >/dev/null 2>&1
    "$bin/lastro" ingest cvm.ipe_cia_aberta "$dir"/ipe_cia_aberta_*.zip >/dev/null 2>&1
    "$bin/lastro" ingest cvm.fre_cia_aberta "$dir"/fre_cia_aberta_2022.zip >/dev/null 2>&1
    "$bin/lastro" ingest cvm.fca_cia_aberta "$dir"/fca_cia_aberta_*.zip >/dev/null 2>&1
    "$bin/lastro" ingest cvm.inf_mensal_cri "$dir"/inf_mensal_cri_*.zip >/dev/null 2>&1
    "$bin/lastro" ingest cvm.inf_mensal_cra "$dir"/inf_mensal_cra_*.zip >/dev/null 2>&1
    "$bin/lastro" ingest cvm.oferta_distribuicao "$dir"/oferta_distribuicao.zip >/dev/null 2>&1
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    start_servers
    # The accented company of the sample (docs/sample.md): its code, CNPJ and documents.
    local company code cnpj
    company=$(curl -s -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port/v1/companhias?q=sider%C3%BArgica%20a%C3%A7%C3%A3o")
    code=$(echo "$company" | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["cvm_code"])')
    cnpj=$(echo "$company" | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["cnpj"])')
    local targets=("/v1/companhias?q=energia" "/v1/companhias/$code/documentos"
        "/v1/companhias/fre/$cnpj/posicao_acionaria/linhas" "/v1/emissoes?tipo=CRI" "/v1/emissoes?q=loteamento")
    targets_beside_bare "$cnpj" "CNPJ" "${targets[@]}"
    stop_servers
}

# B3's listed stocks (plugins/stocks, with the companies plugin it requires) at full scale (see the
# header).
stocks() {
    local dir="$work/stocks-full" plugins="$work/plugins-stocks"
    duration=${DURATION:-5}
    mkdir -p "$plugins"
    ln -sf "$repo/build/$preset/plugins/companies.yaml" "$repo/build/$preset/plugins/liblastro-companies.so" \
        "$repo/build/$preset/plugins/stocks.yaml" "$repo/build/$preset/plugins/liblastro-stocks.so" "$plugins/"
    deploy stocks full 0 "$plugins"
    say "generating the full-size samples of companies and stocks (lastro sample --scale full)"
    "$bin/lastro" sample --scale full --out "$dir" 2>/dev/null
    # The companies first, so that the listing rebuilt after COTAHIST links its tickers.
    "$bin/lastro" ingest cvm.cad_cia_aberta "$dir"/cad_cia_aberta*.csv >/dev/null 2>&1
    "$bin/lastro" ingest cvm.fca_cia_aberta "$dir"/fca_cia_aberta_*.zip >/dev/null 2>&1
    "$bin/lastro" ingest cvm.fre_cia_aberta "$dir"/fre_cia_aberta_*.zip >/dev/null 2>&1
    local year="$dir/COTAHIST_A2026.TXT" records i_s i_kb a_s a_kb q_s q_kb
    records=$(wc -l <"$year")
    printf '%-66s %10s %10s\n' step seconds peak_kB
    read -r i_s i_kb < <(measure "$bin/lastro" ingest b3.cotahist "$year")
    printf '%-66s %10s %10s\n' "lastro ingest b3.cotahist (COTAHIST_A2026.TXT, $records records)" "$i_s" "$i_kb"
    read -r a_s a_kb < <(measure "$bin/lastro" ingest b3.cotahist "$year")
    printf '%-66s %10s %10s\n' "lastro ingest b3.cotahist again (every day replaced, unchanged)" "$a_s" "$a_kb"
    # The floor: every quote record cut into its 26 fields by awk and loaded by sqlite3 into a
    # bare table (no filter, no check, no scaling, no day replacement, no listing).
    cat >"$work/cotahist.awk" <<'AWK'
BEGIN { OFS = ";"; split("3 8 11 2 13 12 25 3 28 12 40 10 50 3 53 4 57 13 70 13 83 13 96 13 109 13 122 13 135 13 148 5 153 18 171 18 189 13 202 1 203 8 211 7 218 13 231 12 243 3", w, " ") }
substr($0, 1, 2) == "01" {
    line = ""
    for (i = 1; i <= 50; i += 2) line = line (i > 1 ? ";" : "") substr($0, w[i], w[i + 1])
    print line
}
AWK
    read -r q_s q_kb < <(measure sh -c "LC_ALL=C awk -f '$work/cotahist.awk' '$year' | sqlite3 '$work/cotahist-bare.db' '.mode csv' '.separator ;' '.import /dev/stdin quote'")
    printf '%-66s %10s %10s\n' "awk | sqlite3 .import: the same records, fields cut, bare table" "$q_s" "$q_kb"
    awk -v a="$i_s" -v b="$q_s" 'BEGIN { printf "ratio lastro ingest / plain load: %.2f (goal: within 2)\n", a / (b > 0 ? b : 0.01) }'
    # Memory against file size: the same year without its options and other markets (a quarter
    # of the bytes, the same kept lines) ingested into an empty database of its own.
    local cash_dir="$work/cotahist-cash" c_s c_kb
    mkdir -p "$cash_dir"
    LC_ALL=C awk 'substr($0, 1, 2) != "01" || substr($0, 25, 3) == "010" || substr($0, 25, 3) == "020"' "$year" \
        >"$cash_dir/COTAHIST_A2026.TXT"
    local config=$LASTRO_CONFIG
    deploy stocks-cash full 0 "$plugins"
    read -r c_s c_kb < <(measure "$bin/lastro" ingest b3.cotahist "$cash_dir/COTAHIST_A2026.TXT")
    printf '%-66s %10s %10s\n' "the same, cash market only ($(wc -c <"$cash_dir/COTAHIST_A2026.TXT") of $(wc -c <"$year") bytes)" \
        "$c_s" "$c_kb"
    export LASTRO_CONFIG=$config
    "$bin/lastro" ingest b3.corporate_actions "$dir"/GetListed*.json >/dev/null 2>&1
    "$bin/lastro" ingest b3.company_details "$dir"/GetDetailsCompany_*.json >/dev/null 2>&1
    "$bin/lastro" ingest b3.index_membership "$dir"/GetStockIndex.json "$dir"/GetTheoricalPortfolio_*.json >/dev/null 2>&1
    export BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    start_servers
    # The most traded ticker and a sector of the listing.
    local top sector
    top=$(curl -s -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port/v1/acoes?sort=volume&order=desc&class=ON&limit=1" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["ticker"])')
    sector=$(curl -s -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port/v1/acoes?class=ON&limit=1" |
        python3 -c 'import json, sys, urllib.parse; print(urllib.parse.quote(json.load(sys.stdin)["data"][0]["sector"]))')
    # A year of adjusted days is the issue's figure; the smaller pages show what a call costs
    # beside what its bytes cost.
    local targets=("/v1/acoes?sector=$sector&sort=market_cap&order=desc" "/v1/acoes?class=ON&sort=volume&order=desc&limit=50"
        "/v1/acoes?sort=change&order=desc&limit=5" "/v1/acoes/$top/cotacoes?adjustment=total"
        "/v1/acoes/$top/cotacoes?adjustment=total&frequency=monthly"
        "/v1/acoes/$top/cotacoes?adjustment=total&from_date=2026-09-01")
    targets_beside_bare "$top" "TICKER" "${targets[@]}"
    stop_servers
}

# CVM's daily fund reports (see the header): the full-size month, a copy of it with a few quotas
# changed, the scale sample without its September (so that the full-size month is the only
# September, whatever is ingested after it), and the CNPJ of the latency runs. Sets daily_zip,
# daily_csv, daily_changed, daily_rows and daily_cnpj.
daily_files() {
    local full="$work/daily-full" s="$work/daily-sample"
    "$bin/lastro" sample --scale full --out "$full" 2>/dev/null
    daily_zip="$full/inf_diario_fi_202609.zip"
    mkdir -p "$work/daily-csv" "$work/daily-changed"
    unzip -q -o "$daily_zip" -d "$work/daily-csv"
    daily_csv="$work/daily-csv/inf_diario_fi_202609.csv"
    daily_rows=$(($(wc -l <"$daily_csv") - 1))
    # The month republished with the quota of every 5,000th row changed (a digit appended: 113
    # rows), zipped as CVM zips it: the replacement path with a few changes.
    LC_ALL=C awk -F';' -v OFS=';' 'NR > 1 && NR % 5000 == 0 { $6 = $6 "1" } { print }' "$daily_csv" \
        >"$work/daily-changed.csv"
    daily_changed="$work/daily-changed/inf_diario_fi_202609.zip"
    python3 - "$daily_changed" "$work/daily-changed.csv" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[2], "inf_diario_fi_202609.csv")
PY
    # The full-size sample has one month: a year of one series needs the scale sample's months
    # (300 funds, 2024-11 .. 2026-10, whose CNPJs the full-size month has too). Its own September
    # would replace the full-size one, so it goes.
    "$bin/lastro" sample --out "$s" 2>/dev/null
    rm -rf "$s/inf_diario_fi_202609.zip" "$s/republished"
    # The CNPJ with the most rows from 2025-10-01 to 2026-09-30 among those that file one series
    # (never an ID_SUBCLASSE, so desempenho needs no source_series_id). Columns by header name:
    # the older months have the legacy layout.
    daily_cnpj=$({
        for f in "$s"/inf_diario_fi_*.zip; do unzip -p "$f"; done
        cat "$daily_csv"
    } | LC_ALL=C awk -F';' '
        /^TP_FUNDO/ { delete col; for (i = 1; i <= NF; i++) col[$i] = i
                      c = ("CNPJ_FUNDO_CLASSE" in col) ? col["CNPJ_FUNDO_CLASSE"] : col["CNPJ_FUNDO"]; next }
        { if (("ID_SUBCLASSE" in col) && $col["ID_SUBCLASSE"] != "") split_[$c] = 1
          d = $col["DT_COMPTC"]; if (d >= "2025-10-01" && d <= "2026-09-30") n[$c]++ }
        END { for (k in n) if (!(k in split_)) print n[k], k }' | sort -k1,1nr -k2 | awk 'NR == 1 {print $2}' | tr -d './-')
    [ -n "$daily_cnpj" ] || {
        say "daily: no single-series CNPJ in the sample"
        exit 1
    }
}

# One ingest of cvm.inf_diario_fi measured: a line with $1, the seconds, the peak kB and what the
# ingest did (+inserted ~updated =unchanged -removed, from its summary); sets daily_s, daily_kb.
daily_ingest() {
    read -r daily_s daily_kb < <(measure "$bin/lastro" ingest cvm.inf_diario_fi "$2")
    printf '%-62s %8s %10s  %s\n' "$1" "$daily_s" "$daily_kb" "$(sed -nE \
        's/.* rows read, ([0-9]+) inserted, ([0-9]+) updated, ([0-9]+) unchanged, ([0-9]+) removed.*/+\1 ~\2 =\3 -\4/p' \
        "$work/measure.err")"
}
daily_ingest_header() {
    printf '%-62s %8s %10s  %s\n' "$1" seconds peak_kB "+inserted ~updated =unchanged -removed"
}

# $1 bytes for $daily_rows rows: per million rows, and what 100 million (the whole history since
# 2005) would take at that rate.
daily_per_million() {
    awk -v b="$1" -v r="$daily_rows" 'BEGIN {
        printf "%.1f MB per million rows (%.1f GB for 100 million)", b / r, b / r * 100e6 / 1e9 }'
}

# wrk_once at 32 connections after 2 s of the same calls, unreported: the first calls on each of
# lastrod's connections (32 on PostgreSQL) open the month partitions, and the first after a release
# reads the dataset's state; measured cold on PostgreSQL, desempenho's p99 was 0.33 s, then 36 and
# 38 ms in the next two runs (2026-11-29). A running server has paid that long before.
daily_wrk() {
    (
        duration=2
        wrk_once "$1" 32 >/dev/null 2>&1
    ) || true
    wrk_once "$1" 32
}

# wrk at 32 connections (DURATION s) on a year of daily desempenho of $daily_cnpj, beside the bare
# endpoint (a small body, then as many bytes as the year's page), the billed path's floor (one row
# of SGS 433, as in series) and desempenho's own (one row); lastrod ($2: its database) listens on
# $1, uncached.
daily_latency() {
    local base="http://127.0.0.1:$1/v1/series-diarias/$daily_cnpj/desempenho" n rps p50 p99 bad bare_rps bytes
    local target query label
    # A measure of error answers would mean nothing: the year's page must answer 200.
    curl -fs -H "Authorization: Bearer $BENCH_KEY" "$base?from_date=2025-10-01&to_date=2026-09-30&limit=500" \
        >"$work/daily-page.json" || {
        say "daily: the year of desempenho of $daily_cnpj did not answer 2xx on $2"
        exit 1
    }
    bytes=$(wc -c <"$work/daily-page.json")
    printf '%s: desempenho of %s from 2025-10-01 to 2026-09-30: %s rows, %s bytes\n' "$2" "$daily_cnpj" \
        "$(python3 -c 'import json, sys; print(len(json.load(sys.stdin)["data"]))' <"$work/daily-page.json")" "$bytes"
    printf '%-62s %6s %10s %10s %10s %10s %8s %8s\n' endpoint conns requests req/s p50 p99 non2xx vs_bare
    read -r n bare_rps p50 p99 bad < <(daily_wrk "http://127.0.0.1:$bare_port/v1/bare")
    printf '%-62s %6s %10s %10s %10s %10s %8s %8s\n' "bare_pistache" 32 "$n" "$bare_rps" "$p50" "$p99" "$bad" 1.000
    for target in "bare_pistache, $bytes bytes|http://127.0.0.1:$bare_port/v1/bare?bytes=$bytes" \
        "/v1/macroeconomia/433?limit=1 ($2, uncached)|http://127.0.0.1:$1/v1/macroeconomia/433?limit=1" \
        "desempenho, one row ($2, uncached)|$base?limit=1&from_date=2026-09-30" \
        "desempenho, one year daily ($2, uncached)|$base?from_date=2025-10-01&to_date=2026-09-30&limit=500"; do
        label=${target%%|*} query=${target#*|}
        read -r n rps p50 p99 bad < <(daily_wrk "$query")
        printf '%-62s %6s %10s %10s %10s %10s %8s %8s\n' "$label" 32 "$n" "$rps" "$p50" "$p99" "$bad" \
            "$(awk -v a="$rps" -v b="$bare_rps" 'BEGIN {printf "%.3f", a / b}')"
    done
}

# SQLite: the ingests beside sqlite3's .import of the same CSV, the database's bytes, the latency.
daily_sqlite() {
    deploy daily full 0
    local db="$work/daily/data/lastro.db" first_s first_kb value_bytes all_bytes s_s s_kb u_s
    daily_ingest_header "step (SQLite)"
    daily_ingest "lastro ingest cvm.inf_diario_fi, the month ($daily_rows rows)" "$daily_zip"
    first_s=$daily_s first_kb=$daily_kb
    # The plugin's daily tables and indexes as SQLite stores them (dbstat): the values and their
    # day index, and all of them (the series, the days, the months...).
    value_bytes=$(sqlite3 "$db" "SELECT SUM(pgsize) FROM dbstat WHERE name IN ('series_daily_value', 'series_daily_value_day_i')")
    all_bytes=$(sqlite3 "$db" "SELECT SUM(pgsize) FROM dbstat
        WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name LIKE 'series_daily%')")
    daily_ingest "the same month again (republished, nothing changed)" "$daily_zip"
    daily_ingest "the month with 113 quotas changed" "$daily_changed"
    # The reference: sqlite3 importing the unzipped CSV into a bare table of its columns (text:
    # no conversion, no check), then a unique index on (CNPJ, subclass, day), so that both end
    # indexed. lastro also inflates the zip, which sqlite3 is spared here: shown apart.
    read -r s_s s_kb < <(measure sqlite3 "$work/daily-import.db" "CREATE TABLE d($(head -1 "$daily_csv" | tr ';' ','));" \
        ".mode csv" ".separator ;" ".import --skip 1 $daily_csv d" \
        "CREATE UNIQUE INDEX d_i ON d(CNPJ_FUNDO_CLASSE, ID_SUBCLASSE, DT_COMPTC);")
    printf '%-62s %8s %10s\n' "sqlite3 .import of the same CSV, with a unique index" "$s_s" "$s_kb"
    read -r u_s _ < <(measure unzip -p "$daily_zip")
    printf '%-62s %8s\n' "unzip -p of the zip (the inflate alone)" "$u_s"
    awk -v a="$first_s" -v b="$s_s" -v m="$first_kb" 'BEGIN {
        printf "ratio lastro ingest / sqlite3 import: %.2f (goal: within 2x); lastro peak %.1f MB (requirement: under 200 MB)\n",
            a / b, m / 1024 }'
    echo "SQLite bytes: series_daily_value with its day index $(daily_per_million "$value_bytes");" \
        "every series_daily table $(daily_per_million "$all_bytes"); sqlite3's bare table with its index" \
        "$(daily_per_million "$(sqlite3 "$work/daily-import.db" "SELECT SUM(pgsize) FROM dbstat WHERE name IN ('d', 'd_i')")")"
    # The scale sample's other months and datasets (the CDI the returns compare with, the
    # registry): a year of rows for the latency.
    "$bin/lastro" ingest --sample "$work/daily-sample" >/dev/null 2>&1
    BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    export BENCH_KEY
    start_servers
    daily_latency "$api_port" SQLite
    stop_servers
}

# One ingest on PostgreSQL ($1 label, $2 file), then its three slowest statements and, when it
# changed the month, the time of the partition built aside and of the swap (DETACH, DROP, RENAME,
# ATTACH), from PostgreSQL's log (log_min_duration_statement is 0 for the ingests' sessions).
daily_pg_ingest() {
    local mark
    mark=$(wc -l <"$work/pg/server.log")
    daily_ingest "$1" "$2"
    tail -n +"$((mark + 1))" "$work/pg/server.log" |
        sed -nE 's/.*duration: ([0-9.]+) ms  (statement|execute [^:]*): (.*)/\1 \3/p' | sort -rn >"$work/daily-statements"
    awk 'NR <= 3 {printf "    %8.0f ms  %s\n", $1, substr($0, index($0, " ") + 1, 100)}' "$work/daily-statements"
    awk '/ DETACH PARTITION | ATTACH PARTITION |^[0-9.]+ DROP TABLE series_daily_value_p|RENAME|DROP CONSTRAINT/ {s += $1; next}
         /series_daily_value_n/ {a += $1}
         END {if (s > 0) printf "    the partition built aside in %.0f ms, swapped in (DETACH, DROP, RENAME, ATTACH) in %.1f ms\n", a, s}' \
        "$work/daily-statements"
}

# PostgreSQL (the pgsql benchmark's cluster, its partitions): the same ingests, the bytes, the
# latency (lastrod with threads: auto, 32 here).
daily_pgsql() {
    local conninfo="host=127.0.0.1 port=$pg_port dbname=lastro user=postgres" value_bytes all_bytes a bare
    pg_stop # under `all`, pgsql's cluster is still on disk
    rm -rf "$work/pg"
    pg_start
    deploy pgsql-cli
    printf 'data_dir: %s\ndatabase: {backend: pgsql, pgsql: {conninfo: "%s"}}\nplugins: {manifest_dirs: [%s]}\n' \
        "$work/pgsql-cli/data" "$conninfo" "$repo/build/$preset/plugins" >"$LASTRO_CONFIG"
    "$bin/lastro" db migrate >/dev/null 2>&1
    # Every statement of new sessions logged with its duration: the ingests', not lastrod's later.
    psql "$conninfo" -XAtqc 'ALTER DATABASE lastro SET log_min_duration_statement = 0'
    daily_ingest_header "step (PostgreSQL)"
    daily_pg_ingest "lastro ingest cvm.inf_diario_fi, the month ($daily_rows rows)" "$daily_zip"
    # The month's partition with its primary key, and every series_daily table (relkind r: the
    # partitioned parent holds nothing of its own).
    value_bytes=$(psql "$conninfo" -XAtqc "SELECT pg_total_relation_size('series_daily_value_p202609')")
    all_bytes=$(psql "$conninfo" -XAtqc "SELECT SUM(pg_total_relation_size(oid)) FROM pg_class
        WHERE relname LIKE 'series_daily%' AND relkind = 'r'")
    daily_pg_ingest "the same month again (republished, nothing changed)" "$daily_zip"
    daily_pg_ingest "the month with 113 quotas changed" "$daily_changed"
    psql "$conninfo" -XAtqc 'ALTER DATABASE lastro RESET log_min_duration_statement'
    echo "PostgreSQL bytes: series_daily_value_p202609 with its primary key $(daily_per_million "$value_bytes");" \
        "every series_daily table $(daily_per_million "$all_bytes")"
    "$bin/lastro" ingest --sample "$work/daily-sample" >/dev/null 2>&1
    # autovacuum's work after a bulk load (the new partitions' statistics) done now, not in the
    # middle of a measure, as scale does.
    psql "$conninfo" -XAtqc 'VACUUM ANALYZE'
    BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    export BENCH_KEY
    start_pgsql_lastrod daily "$api_port" 0
    a=$started_pid
    "$bare_bin/bare_endpoint" "$bare_port" "$threads" 2>/dev/null &
    bare=$!
    daily_latency "$api_port" PostgreSQL
    kill "$a" "$bare" 2>/dev/null || true
    wait "$a" "$bare" 2>/dev/null || true
    pg_stop
}

daily() {
    duration=${DURATION:-5}
    daily_files
    daily_sqlite
    daily_pgsql
}

# ./dev bench profile: where one operation's instructions go. lastrod (release) runs under
# valgrind's callgrind, which counts instructions, not seconds, so a profile repeats on a busy
# machine; it answers CALLS (default 200) calls of URL (default /v1/fundos?limit=100), one at a
# time, uncached, on a full-size SQLite database of MONTHS (default 1) months. Prints the
# instructions per call and the functions by inclusive share; the profile stays in
# build/profile/ for `callgrind_annotate` (./dev shell). Not part of `all`.
profile() {
    local url=${URL:-/v1/fundos?limit=100} calls=${CALLS:-200} out="$repo/build/profile" total
    deploy profile full 0
    "$bin/lastro" sample --scale full --months "${MONTHS:-1}" --out "$work/profile-sample" >/dev/null 2>&1
    "$bin/lastro" ingest --sample "$work/profile-sample" --scale full >/dev/null 2>&1
    BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000 --rate 1000000000 2>/dev/null)
    mkdir -p "$out"
    rm -f "$out"/callgrind.out*
    valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" "$bin/lastrod" 2>"$out/valgrind.log" &
    lastrod_pid=$!
    for _ in $(seq 300); do
        curl -fs -o /dev/null "http://127.0.0.1:$api_port/health" && break
        sleep 0.1
    done
    call() { curl -fs -o /dev/null -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port$url"; }
    call || {
        say "GET $url did not answer 2xx; nothing profiled"
        exit 1
    }
    for _ in 1 2 3 4; do call; done # warm: statements prepared, pages read
    callgrind_control -z "$lastrod_pid" >/dev/null 2>&1
    for _ in $(seq "$calls"); do call; done
    callgrind_control -d "$lastrod_pid" >/dev/null 2>&1
    kill "$lastrod_pid"
    wait "$lastrod_pid" 2>/dev/null || true
    total=$(callgrind_annotate "$out"/callgrind.out.1 | awk '/PROGRAM TOTALS/ {gsub(/,/, "", $1); print $1}')
    printf 'GET %s: %s instructions a call (%s calls)\n' "$url" "$(awk -v t="$total" -v n="$calls" 'BEGIN {printf "%.0f", t / n}')" "$calls"
    callgrind_annotate --inclusive=yes "$out"/callgrind.out.1 | grep -E '^ *[0-9,]+ \(' | head -40
}

# What PostgreSQL itself costs on this machine, without lastrod (docs/performance.md,
# "PostgreSQL: round trips per call"): pgbench's select-only transaction (one indexed SELECT,
# prepared, autocommit: a round trip's floor) at 8 clients, and durable transactions inserting
# rows shaped as billing's ledger (the same table definition, 19 and 100 rows a transaction, with
# and without the ON CONFLICT DO NOTHING RETURNING a retried batch needs: a billed call's floor),
# each with PostgreSQL's CPU per statement or row.
pgfloor() {
    local conninfo="host=127.0.0.1 port=$pg_port dbname=lastro user=postgres" t0 out n rows tail
    pg_start
    deploy pgsql-cli
    printf 'data_dir: %s\ndatabase: {backend: pgsql, pgsql: {conninfo: "%s"}}\nplugins: {manifest_dirs: [%s]}\n' \
        "$work/pgsql-cli/data" "$conninfo" "$repo/build/$preset/plugins" >"$LASTRO_CONFIG"
    "$bin/lastro" db migrate >/dev/null 2>&1
    "$pg_bin/pgbench" -h 127.0.0.1 -p "$pg_port" -U postgres -i -s 1 -q lastro >/dev/null 2>&1
    psql "$conninfo" -XAtq -c 'CREATE TABLE floor_ledger (LIKE billing_ledger INCLUDING ALL)' \
        -c 'CREATE SEQUENCE floor_seq'
    # The cluster's CPU: the postmaster, its live children and those it has reaped (a pgbench
    # connection's backend ends with the run).
    pg_all_ticks() {
        local main sum
        main=$(head -1 "$work/pg/data/postmaster.pid")
        sum=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$main/stat")
        for pid in $(pgrep -P "$main"); do
            sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
        done
        echo "$sum"
    }
    floor_run() { # $1 label, $2 rows a transaction (0: pgbench -S), then pgbench's arguments
        local label=$1 per=$2
        shift 2
        t0=$(pg_all_ticks)
        out=$("$pg_bin/pgbench" -h 127.0.0.1 -p "$pg_port" -U postgres -n -M prepared -T "$duration" "$@" lastro 2>&1)
        sleep 0.5
        n=$(echo "$out" | sed -n 's/.*actually processed: \([0-9]*\).*/\1/p')
        printf '| %s | %s | %s µs |\n' "$label" "$(echo "$out" | awk '/^tps/ {printf "%.0f", $3}')" \
            "$(cpu_per_call "$t0" "$(pg_all_ticks)" "$((n * (per > 0 ? per : 1)))")"
    }
    echo "| workload | transactions/s | PostgreSQL CPU per statement or row |"
    echo "|---|---|---|"
    floor_run "pgbench -S: one indexed SELECT a transaction, 8 clients" 0 -S -c 8 -j 2
    for rows in 19 100; do
        for tail in "" "ON CONFLICT (request_id) DO NOTHING RETURNING request_id"; do
            cat >"$work/floor.sql" <<SQL
INSERT INTO floor_ledger (request_id, key_id, operation, price, month, state, status, reserved_at, settled_at, instance)
SELECT lpad(nextval('floor_seq')::text, 24, '0'), 1, 'funds.search', 1, '2026-11', 'charged', 200,
       '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z', 'a' FROM generate_series(1, $rows) $tail;
SQL
            floor_run "$rows ledger rows a durable transaction${tail:+, ON CONFLICT DO NOTHING RETURNING}, 1 client" \
                "$rows" -f "$work/floor.sql" -c 1
        done
    done
    pg_stop
}

# ./dev bench scale (bench/scale/scale.sh): not part of `all`, it takes about a quarter of an hour.
# shellcheck source=bench/scale/scale.sh
. "$repo/bench/scale/scale.sh"
# ./dev bench soak (bench/soak.sh): not part of `all`, it takes half an hour by default.
# shellcheck source=bench/soak.sh
. "$repo/bench/soak.sh"

case "$what" in
memory) memory ;;
load) load ;;
pgsql) pgsql ;;
pgfloor) pgfloor ;;
parsing) "$bin/request_parsing" ;;
ingest) ingest ;;
latency) latency ;;
industry) industry ;;
compression) compression ;;
series) series ;;
daily) daily ;;
companies) companies ;;
stocks) stocks ;;
scale) scale ;;
profile) profile ;;
soak) soak "${@:2}" ;;
all)
    memory
    ingest
    latency
    load
    pgsql
    industry
    series
    daily
    companies
    stocks
    ;;
esac
