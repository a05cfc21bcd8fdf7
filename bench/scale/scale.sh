#!/usr/bin/env bash
# ./dev bench scale: every /v1 operation of every loaded plugin, uncached, on a full-size
# universe of MONTHS months, with a spread of parameters, beside the bare endpoint, on SQLite
# and on PostgreSQL (bench/README.md, "scale"). Sourced by bench/run.sh, which builds the
# release binaries and gives deploy, sample, pg_start, start_pgsql_lastrod, wrk_once and the
# clean-up trap; not run on its own.
#
# Knobs: MONTHS (default 120) full-size months of FIDC reports; DURATION (default 5) seconds of
# wrk per operation; PER_OP (default 2000) paths drawn per operation; DATABASES (default
# "sqlite pgsql"); OPS (default every operation) a comma-separated list of operation ids to
# measure, e.g. OPS=funds.class_documents,funds.resolve; CACHED=1 adds, on SQLite, each
# operation's paths answered from the response cache (scale_cached: the floor under its handler).
# repo, bin, work, preset, api_port, bare_port, pg_port, threads, duration, wrk_timeout, lastrod_pid and started_pid are
# bench/run.sh's; the backquotes in printf formats are markdown.
# shellcheck disable=SC2154,SC2034,SC2016
set -euo pipefail

# wrk's latency of "1.23ms", "456.00us" or "1.02s" in milliseconds, two decimals.
scale_ms() {
    awk -v t="$1" 'BEGIN {
        v = t + 0
        if (t ~ /us$/) v /= 1000; else if (t ~ /ms$/) v += 0; else if (t ~ /m$/) v *= 60000; else if (t ~ /s$/) v *= 1000
        printf "%.2f", v }'
}

# Megabytes, one decimal, of a byte count.
scale_mb() { awk -v b="$1" 'BEGIN {printf "%.1f", b / 1048576}'; }

scale_elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}'; }

# Loads the default sample of every dataset (its months among the full-size ones), then the
# full-size sample over it (every dataset whose manifest declares scale full): the registry is a
# full snapshot and each month of the reports is replaced, so what stays at the default scale are
# the datasets without a full-size sample (their writers say so in the notes of lastro sample).
# In this order the derived datasets are derived once over the full-size months; after them,
# each dataset they derive from would derive every month again.
scale_ingest() {
    local t0
    t0=$(date +%s.%N)
    scale_lastro_ingest "default scale" --sample "$work/scale-sample"
    scale_lastro_ingest "full size" --sample "$work/scale-full" --scale full
    say "ingested in $(scale_elapsed "$t0") s"
    [ "${REGISTRY:-0}" = 1 ] && scale_registry_changes
    return 0
}

# REGISTRY=1: what a registry ingest that changes something costs once the full-size months
# are stored: the full-size registry with one FIDC fund renamed (a small change), then the
# default sample's registry over it (most funds and classes removed or changed), then the
# full-size one back (as many inserted), each timed.
scale_registry_changes() {
    local t0 file renamed="$work/scale-registry-renamed/registro_fundo_classe.zip"
    mkdir -p "${renamed%/*}"
    python3 - "$work/scale-full/registro_fundo_classe.zip" "$renamed" <<'PY'
import sys, zipfile
source, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
    for info in zin.infolist():
        data = zin.read(info)
        if info.filename == "registro_fundo.csv":
            lines = data.decode("latin-1").split("\n")
            header = lines[0].split(";")
            name, kind = header.index("Denominacao_Social"), header.index("Tipo_Fundo")
            for i, line in enumerate(lines[1:], 1):
                fields = line.split(";")
                if len(fields) == len(header) and "FIDC" in fields[kind].upper():
                    fields[name] = "AAA " + fields[name]
                    lines[i] = ";".join(fields)
                    break
            data = "\n".join(lines).encode("latin-1")
        zout.writestr(info, data)
PY
    for file in "$renamed" "$work/scale-sample/registro_fundo_classe.zip" "$work/scale-full/registro_fundo_classe.zip"; do
        t0=$(date +%s.%N)
        scale_lastro_ingest "registry change" cvm.registro_fundo_classe "$file"
        say "registry ingest of ${file#"$work"/} over the stored one in $(scale_elapsed "$t0") s"
    done
}

# lastro ingest ARGS (after $1, a label): each dataset's summary line, or the end of its output
# and exit 1 when it fails.
scale_lastro_ingest() {
    local label=$1
    shift
    if ! "$bin/lastro" ingest "$@" >"$work/scale-ingest.log" 2>&1; then
        say "lastro ingest $* failed:"
        tail -n 5 "$work/scale-ingest.log" >&2
        exit 1
    fi
    grep ' s): ' "$work/scale-ingest.log" | sed -E "s/ rows read.*//; s/^/  ingest ($label): /" >&2 || true
}

# What an ingest left for the kernel to write (the data file's pages, the samples' files; on
# PostgreSQL, with $1 its conninfo, what a checkpoint writes) is written before the first
# measure: on ext4 a billed answer waits for its charge's fdatasync, and that waits behind the
# writeback (3 GB left to the kernel put the next operation's p99 at 328 ms; docs/performance.md,
# "Fourteenth round"). Measures of serving start on a settled disk.
scale_quiesce() {
    local t0
    t0=$(date +%s.%N)
    if [ -n "${1:-}" ]; then psql "$1" -XAtqc 'CHECKPOINT'; fi
    sync
    say "written out in $(scale_elapsed "$t0") s"
}

# A key whose allowance outlasts the run: every call is billed.
scale_key() {
    BENCH_KEY=$("$bin/lastro" keys create --name bench --credits 1000000000000 --rate 1000000000 2>/dev/null)
    export BENCH_KEY
}

# SCALE_DUMP: every path of the list $2 asked once more, after the measure, each answer as one
# line "path<TAB>body" in $3, sorted by path: two builds' files compared tell whether a change
# altered any answer on the full-size data (docs/performance.md, "carteira/fundos batched").
scale_dump() {
    mkdir -p "$(dirname "$3")"
    sort -u "$2" | while IFS= read -r path; do
        [ -n "$path" ] || continue
        printf '%s\t%s\n' "$path" "$(curl -s -H "Authorization: Bearer $BENCH_KEY" "$1$path")"
    done >"$3"
}

# Waits (at most a minute) until lastrod ($1) and the database's processes (ticks from the
# command $2, if any) are idle: calls that wrk left in flight when it stopped are still being
# answered, and would be counted against the next operation.
scale_settle() {
    local a b
    for _ in $(seq 300); do
        a=$(scale_ticks "$1" "$2")
        sleep 0.2
        b=$(scale_ticks "$1" "$2")
        [ $((b - a)) -le 2 ] && return
    done
    say "lastrod still busy a minute after wrk stopped; the next figures may be low"
}

scale_ticks() {
    local t
    t=$(cpu_ticks "$1")
    if [ -n "$2" ]; then t=$((t + $($2))); fi
    echo "$t"
}

# The table's lines for one database: $1 the label, $2 the lastrod pid, $3 a command printing
# the CPU ticks of the database's own processes (or "" for none), $4 the base URL, $5 the
# database for paths.py (sqlite:FILE or pgsql:CONNINFO), $6 the bare endpoint's URL, $7 a
# command counting statements: "$7 on" starts counting, "$7 off" prints the count since and
# stops (or "" for none). The count is taken in a run of its own, a second long, after the
# measure, so that counting costs nothing the CPU columns show.
scale_measure() {
    local label=$1 pid=$2 db_ticks=$3 base=$4 database=$5 bare=$6 statements=${7:-} counted
    local dir="$work/scale-paths-$label" t0 op template count note n rps p50 p99 bad c0 d0 cpu db_cpu
    t0=$(date +%s.%N)
    python3 "$repo/bench/scale/paths.py" "$base" "$dir" "$database" "${PER_OP:-2000}"
    say "paths drawn in $(scale_elapsed "$t0") s"
    local asked ops=${OPS:-}
    for asked in ${ops//,/ }; do
        cut -f1 "$dir/operations.tsv" | grep -qxF "$asked" || say "OPS: there is no operation $asked (see $dir/operations.tsv)"
    done
    printf '| operation | paths | calls | calls/s | p50 ms | p99 ms | errors | lastrod CPU/call |%s%s\n' \
        "${db_ticks:+ database CPU/call |}" "${statements:+ round trips/call |}" >>"$work/scale-$label.md"
    printf '|---|---|---|---|---|---|---|---|%s%s\n' "${db_ticks:+---|}" "${statements:+---|}" >>"$work/scale-$label.md"
    while IFS=$'\t' read -r op template _plugin count note; do
        if [ -n "${OPS:-}" ] && [[ ",$OPS," != *",$op,"* ]]; then
            continue # not asked for: no row
        fi
        if [ "$note" != ok ]; then
            printf '| %s `%s` | 0 | | **%s** | | | | |%s%s\n' "$op" "$template" "$note" "${db_ticks:+ |}" "${statements:+ |}" \
                >>"$work/scale-$label.md"
            continue
        fi
        # WARM=1: a second run of the same paths right after the first, once every month, page
        # and statement the first run met is in the server's and the database's memory.
        local run runs="" shown=$op
        [ "${WARM:-0}" = 1 ] && runs="warm"
        for run in first $runs; do
            [ "$run" = warm ] && shown="$op (warm: second run)"
            say "$label: $shown ($count paths, ${duration} s)"
            c0=$(cpu_ticks "$pid")
            [ -n "$db_ticks" ] && d0=$($db_ticks)
            read -r n rps p50 p99 bad < <(SCALE_PATHS="$dir/$op.paths" wrk_once "$base" 32 bench/scale/paths.lua)
            if [ "${n:-0}" = 0 ]; then
                say "$label: $shown: no call finished in $duration s"
                printf '| %s `%s` | %s | 0 | **no call finished in %s s** | | | %s | |%s%s\n' "$shown" "$template" \
                    "$count" "$duration" "$bad" "${db_ticks:+ |}" "${statements:+ |}" >>"$work/scale-$label.md"
            else
                cpu="$(cpu_per_call "$c0" "$(cpu_ticks "$pid")" "$n") µs"
                db_cpu=""
                [ -n "$db_ticks" ] && db_cpu=" $(cpu_per_call "$d0" "$($db_ticks)" "$n") µs |"
                if [ -n "$statements" ]; then
                    scale_settle "$pid" "$db_ticks"
                    $statements on
                    read -r counted _ < <(duration=1 SCALE_PATHS="$dir/$op.paths" wrk_once "$base" 32 bench/scale/paths.lua)
                    db_cpu+=" $(awk -v s="$($statements off)" -v n="${counted:-0}" 'BEGIN {printf "%.1f", n ? s / n : 0}') |"
                fi
                printf '| %s `%s` | %s | %s | %.0f | %s | %s | %s | %s |%s\n' "$shown" "$template" "$count" "$n" \
                    "$rps" "$(scale_ms "$p50")" "$(scale_ms "$p99")" "$bad" "$cpu" "$db_cpu" >>"$work/scale-$label.md"
            fi
            if [ -n "${SCALE_DUMP:-}" ] && [ "$note" = ok ] && [ "$run" = first ]; then
                scale_dump "$base" "$dir/$op.paths" "$SCALE_DUMP/$label-$op.txt"
            fi
            scale_settle "$pid" "$db_ticks"
        done
    done <"$dir/operations.tsv"
    # The bare endpoint takes the same load: wrk with the same script on one operation's paths.
    read -r n rps p50 p99 bad < <(SCALE_PATHS="$dir/$(awk -F'\t' '$5 == "ok" {print $1; exit}' "$dir/operations.tsv").paths" \
        wrk_once "$bare" 32 bench/scale/paths.lua)
    printf '| bare Pistache endpoint (same wrk script) | | %s | %.0f | %s | %s | %s | |%s%s\n' "$n" "$rps" "$(scale_ms "$p50")" \
        "$(scale_ms "$p99")" "$bad" "${db_ticks:+ |}" "${statements:+ |}" >>"$work/scale-$label.md"
}

# CACHED=1: the floor under each operation's handler. The same drawn paths, each asked once
# first, then answered from the response cache (server.response_cache_mb 2048): what the host,
# billing and HTTP cost with that operation's bodies, no handler run. $1 the label, $2 the
# lastrod pid, $3 the base URL; the paths are scale_measure's.
scale_cached() {
    local label=$1 pid=$2 base=$3 dir="$work/scale-paths-$1" op template count note n rps p50 p99 bad c0
    printf '| operation | calls | calls/s | p50 ms | p99 ms | errors | lastrod CPU/call |\n|---|---|---|---|---|---|---|\n' \
        >"$work/scale-$label-cached.md"
    while IFS=$'\t' read -r op template _plugin count note; do
        if [ "$note" != ok ] || { [ -n "${OPS:-}" ] && [[ ",$OPS," != *",$op,"* ]]; }; then
            continue
        fi
        say "$label, cached: $op (every path asked once, then ${duration} s)"
        xargs -P 2 -I{} curl -s -o /dev/null -H "Authorization: Bearer $BENCH_KEY" "$base{}" <"$dir/$op.paths"
        c0=$(cpu_ticks "$pid")
        read -r n rps p50 p99 bad < <(SCALE_PATHS="$dir/$op.paths" wrk_once "$base" 32 bench/scale/paths.lua)
        printf '| %s `%s` | %s | %.0f | %s | %s | %s | %s µs |\n' "$op" "$template" "$n" "$rps" "$(scale_ms "$p50")" \
            "$(scale_ms "$p99")" "$bad" "$(cpu_per_call "$c0" "$(cpu_ticks "$pid")" "$n")" >>"$work/scale-$label-cached.md"
        scale_settle "$pid" ""
    done <"$dir/operations.tsv"
}

scale_sqlite() {
    local t0 db size wal
    say "SQLite: deploying and ingesting"
    deploy scale-sqlite full 0
    scale_ingest
    scale_quiesce
    db="$work/scale-sqlite/data/lastro.db"
    scale_key
    start_servers
    t0=$(date +%s.%N)
    scale_measure sqlite "$lastrod_pid" "" "http://127.0.0.1:$api_port" "sqlite:$db" "http://127.0.0.1:$bare_port"
    # The size while lastrod serves, its WAL as the run left it.
    size=$(stat -c %s "$db")
    wal=$(stat -c %s "$db-wal" 2>/dev/null || echo 0)
    stop_servers
    say "SQLite: served in $(scale_elapsed "$t0") s"
    if [ "${CACHED:-0}" = 1 ]; then
        sed -i -E "s/response_cache_mb: [0-9]+/response_cache_mb: 2048/" "$LASTRO_CONFIG"
        start_servers
        scale_cached sqlite "$lastrod_pid" "http://127.0.0.1:$api_port"
        stop_servers
        sed -i -E "s/response_cache_mb: [0-9]+/response_cache_mb: 0/" "$LASTRO_CONFIG"
    fi
    printf '\nSQLite (`synchronous: full`, `threads: %s`, `response_cache_mb: 0`): database %s MB (file %s MB + WAL %s MB)\n\n' \
        "$threads" "$(scale_mb $((size + wal)))" "$(scale_mb "$size")" "$(scale_mb "$wal")"
    cat "$work/scale-sqlite.md"
    if [ "${CACHED:-0}" = 1 ]; then
        printf '\nThe same paths from the response cache (`CACHED=1`: each asked once, then served with no handler run; the floor of the host, billing and HTTP with these bodies):\n\n'
        cat "$work/scale-sqlite-cached.md"
    fi
}

# Round trips to PostgreSQL: "on" starts pg_stat_statements counting (the cluster runs it
# with tracking off), "off" prints the round trips since and stops: every statement it counted
# (BEGIN and COMMIT included; billing's batched writes too) and, for each DEALLOCATE, the
# PREPARE before it that it does not count (a query ODB runs unprepared).
pg_round_trips() {
    local conninfo="host=127.0.0.1 port=$pg_port dbname=lastro user=postgres" out
    if [ "$1" = on ]; then
        psql "$conninfo" -XAtq -c 'SELECT pg_stat_statements_reset()' \
            -c "ALTER SYSTEM SET pg_stat_statements.track = 'top'" -c 'SELECT pg_reload_conf()' >/dev/null
        sleep 0.2 # every backend reads the reloaded setting before its next statement
        return
    fi
    psql "$conninfo" -XAtq -c "ALTER SYSTEM SET pg_stat_statements.track = 'none'" -c 'SELECT pg_reload_conf()' >/dev/null
    out=$(psql "$conninfo" -XAtq -c \
        "SELECT coalesce(sum(calls), 0) + coalesce(sum(calls) FILTER (WHERE query ILIKE 'deallocate%'), 0) FROM pg_stat_statements
         WHERE query NOT ILIKE '%pg_stat_statements%' AND query NOT ILIKE '%pg_reload_conf%' AND query NOT ILIKE 'ALTER SYSTEM%'")
    echo "$out"
}

scale_pgsql() {
    local t0 conninfo="host=127.0.0.1 port=$pg_port dbname=lastro user=postgres" size
    say "PostgreSQL: starting a cluster, deploying and ingesting"
    # pg_stat_statements counts the statements of each operation's calls: round trips are what a
    # call costs PostgreSQL most (docs/performance.md, "PostgreSQL: round trips per call").
    # Tracking is switched by ALTER SYSTEM (a server option would override it), off but while
    # counting (pg_round_trips).
    PG_OPTIONS="-c shared_preload_libraries=pg_stat_statements" pg_start
    psql "$conninfo" -XAtq -c 'CREATE EXTENSION pg_stat_statements' \
        -c "ALTER SYSTEM SET pg_stat_statements.track = 'none'" -c 'SELECT pg_reload_conf()' >/dev/null
    deploy pgsql-cli
    cat >"$LASTRO_CONFIG" <<YAML
data_dir: $work/pgsql-cli/data
database: {backend: pgsql, pgsql: {conninfo: "$conninfo"}}
plugins: {manifest_dirs: [$repo/build/$preset/plugins]}
YAML
    "$bin/lastro" db migrate 2>/dev/null
    scale_ingest
    # What autovacuum does some time after a bulk load (statistics, visibility map), done now:
    # else it may run in the middle of an operation's measure, in its CPU per call and plans.
    t0=$(date +%s.%N)
    psql "$conninfo" -XAtqc 'VACUUM ANALYZE'
    say "PostgreSQL: VACUUM ANALYZE in $(scale_elapsed "$t0") s"
    scale_quiesce "$conninfo"
    scale_key
    start_pgsql_lastrod scale "$api_port" 0
    local pid=$started_pid
    "$bin/bare_endpoint" "$bare_port" "$threads" 2>/dev/null &
    local bare=$!
    t0=$(date +%s.%N)
    scale_measure pgsql "$pid" pg_ticks "http://127.0.0.1:$api_port" "pgsql:$conninfo" "http://127.0.0.1:$bare_port" \
        pg_round_trips
    kill "$pid" "$bare" 2>/dev/null || true
    wait "$pid" "$bare" 2>/dev/null || true
    size=$(psql "$conninfo" -XAtqc "SELECT pg_database_size('lastro')")
    pg_stop
    say "PostgreSQL: served in $(scale_elapsed "$t0") s"
    printf '\nPostgreSQL 17 (durable, `threads: auto`, `response_cache_mb: 0`): database %s MB (pg_database_size)\n\n' \
        "$(scale_mb "$size")"
    cat "$work/scale-pgsql.md"
}

scale() {
    local months=${MONTHS:-120} t0 t_all db
    duration=${DURATION:-5}
    wrk_timeout=30s # a slow scan shows in p99 rather than as wrk's timeouts
    t_all=$(date +%s.%N)
    say "generating $months full-size months (lastro sample --scale full --months $months) and the default sample"
    t0=$(date +%s.%N)
    # lastro sample reads only `plugins:` of its configuration.
    printf 'data_dir: %s\nplugins: {manifest_dirs: [%s]}\n' "$work/scale-data" "$repo/build/$preset/plugins" \
        >"$work/scale-sample.yaml"
    export LASTRO_CONFIG="$work/scale-sample.yaml"
    "$bin/lastro" sample --scale full --months "$months" --out "$work/scale-full" 2>&1 | sed 's/^/  /' >&2
    # The default sample's months must lie within the full-size ones, which replace them: its
    # last six (those of its CDA) at most, so that its ingest and derivations stay short.
    "$bin/lastro" sample --months $((months < 6 ? months : 6)) --out "$work/scale-sample" 2>&1 | sed 's/^/  /' >&2
    say "samples written in $(scale_elapsed "$t0") s"
    for db in ${DATABASES:-sqlite pgsql}; do
        case "$db" in
        sqlite) scale_sqlite ;;
        pgsql) scale_pgsql ;;
        *)
            say "DATABASES: unknown database $db (sqlite, pgsql)"
            exit 2
            ;;
        esac
    done
    printf '\n%s full-size months (%s), %s s of wrk per operation at 32 connections, every call billed; whole run %s s\n' \
        "$months" "lastro sample --scale full --months $months" "$duration" "$(scale_elapsed "$t_all")"
    if cat "$work"/scale-*.md | grep -q 'NOT MEASURED'; then
        say "some operations were NOT MEASURED (their rows say why):"
        cat "$work"/scale-*.md | grep 'NOT MEASURED' | cut -d'|' -f2 | sort -u | sed 's/^/  /' >&2
    fi
}
