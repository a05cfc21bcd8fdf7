#!/usr/bin/env bash
# ./dev bench soak (issue 51): lastrod on the sample (SQLite) for SOAK_MINUTES at SOAK_LOAD of its
# measured capacity of billed calls, with ABUSERS abusive connections of each kind beside the
# normal clients (bench/README.md, "soak"). Checks at the end: lastrod's resident memory flat,
# no 5xx answer, /health answered throughout, and the credits charged to the soak's keys (one
# per population of clients) equal to the X-Credits-Charged of the answers received whole.
# Exit 1 when a check fails. Not in CI, not part of `all`.
#
# Sourced by bench/run.sh, which builds the release binaries and gives deploy, sample,
# wrk_once, rss, hwm, say and the clean-up trap (which stops every background job); not run on
# its own.
#
# Knobs: SOAK_MINUTES (default 30), SOAK_LOAD (fraction of the measured capacity, default 0.8),
# ABUSERS (connections of each abusive kind, default 8). ./dev hands only its own list of
# variables to the build root, so they are also taken as arguments:
# `./dev bench soak SOAK_MINUTES=2 ABUSERS=2`.
# repo, bin, work, preset, api_port, duration and lastrod_pid are bench/run.sh's.
# shellcheck disable=SC2154
set -euo pipefail

# The billed operation of the normal clients and of the capacity measure.
soak_path="/v1/fundos?limit=10"
soak_connections=32

# The soak's keys, one per population, so that a ledger that does not add up names it: the
# normal clients, then the abusers that send billed calls (the CRLF flood sends none).
soak_kinds="clients never_reading half_closing slowloris"

# A value of `lastro keys usage` ($3: charged, reserved, ledger_charged) of the key with id $1,
# summed over the months from $2 to this one (a soak that crosses a month's end is billed in both).
soak_usage() {
    local month total=0 value
    for month in $(printf '%s\n' "$2" "$(date -u +%Y-%m)" | sort -u); do
        value=$("$bin/lastro" keys usage "$1" --month "$month" 2>/dev/null | awk -v k="$3" '$1 == k {print $2}')
        total=$((total + ${value:-0}))
    done
    echo "$total"
}

# The same summed over every key of the soak.
soak_usage_all() {
    local kind total=0
    for kind in $soak_kinds; do
        total=$((total + $(soak_usage "${soak_key_ids[$kind]}" "$1" "$2")))
    done
    echo "$total"
}

soak_verdict() { if [ "$1" = 0 ]; then echo ok; else echo FAIL; fi; }

# "name value" files of soak_client: the value of $2 in $1 (0 when absent).
soak_value() { awk -v k="$2" '$1 == k {v = $2} END {print v + 0}' "$1"; }

soak() {
    local arg
    for arg in "$@"; do
        case "$arg" in
        SOAK_MINUTES=* | SOAK_LOAD=* | ABUSERS=*) export "${arg?}" ;;
        *)
            say "soak: unknown argument '$arg' (knobs: SOAK_MINUTES=N SOAK_LOAD=F ABUSERS=N)"
            exit 2
            ;;
        esac
    done
    local minutes=${SOAK_MINUTES:-30} load=${SOAK_LOAD:-0.8} abusers=${ABUSERS:-8}
    if ! [[ $minutes =~ ^[0-9]+([.][0-9]+)?$ && $load =~ ^[0-9]*[.]?[0-9]+$ && $abusers =~ ^[0-9]+$ ]] ||
        ! awk -v l="$load" 'BEGIN {exit !(l > 0)}'; then
        say "soak: SOAK_MINUTES and SOAK_LOAD must be numbers (SOAK_LOAD above 0), ABUSERS a whole number"
        exit 2
    fi
    local seconds out="$repo/build/soak"
    seconds=$(awk -v m="$minutes" 'BEGIN {printf "%d", m * 60}')
    [ "$seconds" -ge 30 ] || {
        say "soak: SOAK_MINUTES must be at least 0.5"
        exit 2
    }
    cmake --build --preset "$preset" --target soak_client >/dev/null
    mkdir -p "$out"
    rm -f "$out"/rss.csv "$out"/clients.txt "$out"/abusers.txt "$out"/health-failures.txt "$out"/lastrod.log

    deploy soak
    sample
    "$bin/lastro" ingest cvm.registro_fundo_classe "$work/sample/registro_fundo_classe.zip" 2>/dev/null
    # The capacity measure has a key of its own: wrk leaves calls in flight when it stops, and
    # they must not count in the soak's ledger.
    export BENCH_KEY
    BENCH_KEY=$("$bin/lastro" keys create --name soak-capacity --credits 1000000000 --rate 1000000000 2>/dev/null)
    local kind
    declare -gA soak_keys=() soak_key_ids=()
    for kind in $soak_kinds; do
        soak_keys[$kind]=$("$bin/lastro" keys create --name "soak-${kind//_/-}" --credits 1000000000 \
            --rate 1000000000 2>"$work/soak-key.err")
        soak_key_ids[$kind]=$(sed -n 's/^created key \([0-9]*\) .*/\1/p' "$work/soak-key.err")
        [ -n "${soak_key_ids[$kind]}" ] || {
            say "soak: no key id in: $(cat "$work/soak-key.err")"
            exit 1
        }
    done
    local key=${soak_keys[clients]}

    "$bin/lastrod" 2>"$work/lastrod.log" &
    lastrod_pid=$!
    for _ in $(seq 50); do
        curl -fs -o /dev/null "http://127.0.0.1:$api_port/health" && break
        sleep 0.1
    done
    # Asked with the capacity key: a call on a soak key would be charged and received by no soak client.
    curl -fs -o /dev/null -H "Authorization: Bearer $BENCH_KEY" "http://127.0.0.1:$api_port$soak_path" || {
        say "soak: GET $soak_path did not answer 2xx: $(cat "$work/lastrod.log")"
        exit 1
    }

    # (a) Capacity: wrk at 32 connections on the billed operation (DURATION seconds, default 10).
    local n rps p50 p99 bad rate
    read -r n rps p50 p99 bad < <(wrk_once "http://127.0.0.1:$api_port$soak_path" "$soak_connections")
    rate=$(awk -v r="$rps" -v l="$load" 'BEGIN {printf "%.1f", r * l}')
    printf 'capacity: %s calls/s of GET %s at %s connections (%s calls in %s s, p50 %s, p99 %s, errors %s)\n' \
        "$rps" "$soak_path" "$soak_connections" "$n" "$duration" "$p50" "$p99" "$bad"
    printf 'soak: %s min at %s of it, %s calls/s on %s connections, beside %s abusive connections of each kind\n' \
        "$minutes" "$load" "$rate" "$soak_connections" "$abusers"
    sleep 2 # what wrk left in flight settles

    local t0 month0
    t0=$(date +%s)
    month0=$(date -u +%Y-%m)
    # (d) lastrod's resident memory every 10 s (bounded: one sample per 10 s of the soak).
    (
        echo "seconds,rss_kb"
        for i in $(seq 0 $((seconds / 10))); do
            now=$(date +%s)
            [ $((t0 + 10 * i)) -gt "$now" ] && sleep $((t0 + 10 * i - now))
            kb=$(rss "$lastrod_pid" 2>/dev/null) || break
            echo "$((10 * i)),$kb"
        done
    ) >"$out/rss.csv" &
    local sampler=$!
    # /health once a second (bounded: one probe per second of the soak, 2 s at most each).
    (
        ok=0 failed=0
        for i in $(seq 1 "$seconds"); do
            now=$(date +%s)
            [ $((t0 + i)) -gt "$now" ] && sleep $((t0 + i - now))
            if curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$api_port/health"; then
                ok=$((ok + 1))
            else
                failed=$((failed + 1))
                echo "$(($(date +%s) - t0))" >>"$out/health-failures.txt"
            fi
        done
        echo "$ok $failed" >"$work/health.out"
    ) &
    local prober=$!
    # (b) and (c): the normal clients and the abusers, on the soak's key.
    "$bin/soak_client" load "$api_port" "$key" "$soak_path" "$rate" "$soak_connections" "$seconds" \
        >"$out/clients.txt" &
    local clients=$!
    "$bin/soak_client" abuse "$api_port" "$abusers" "$seconds" "${soak_keys[never_reading]}" \
        "${soak_keys[half_closing]}" "${soak_keys[slowloris]}" >"$out/abusers.txt" &
    local abusers_pid=$!
    wait "$clients" || {
        say "soak: soak_client load failed"
        exit 1
    }
    wait "$abusers_pid" || {
        say "soak: soak_client abuse failed"
        exit 1
    }
    wait "$sampler" "$prober" || true

    # (e) The ledger. lastrod settles the calls it took when their connections end, at the
    # latest at its keep-alive timeout (15 s) for a client that reads nothing; so wait past it,
    # then until nothing is reserved and the charged credits stay still (bounded).
    sleep 20
    local charged reserved previous=-1
    for _ in $(seq 15); do
        charged=$(soak_usage_all "$month0" charged)
        reserved=$(soak_usage_all "$month0" reserved)
        [ "$reserved" = 0 ] && [ "$charged" = "$previous" ] && break
        previous=$charged
        sleep 2
    done
    local ledger_charged billing_db
    ledger_charged=$(soak_usage_all "$month0" ledger_charged)
    billing_db=$("$bin/lastro" config 2>/dev/null | awk '$1 == "sqlite_billing_path" {print $2}')

    local alive=yes
    kill -0 "$lastrod_pid" 2>/dev/null || alive=no
    cp "$work/lastrod.log" "$out/lastrod.log"
    local rss_line peak_hwm=-
    [ "$alive" = yes ] && peak_hwm=$(hwm "$lastrod_pid")
    kill "$lastrod_pid" 2>/dev/null || true
    wait "$lastrod_pid" 2>/dev/null || true

    local c=$out/clients.txt a=$out/abusers.txt failed=0
    printf 'clients: sent %s (%s calls/s), whole %s (2xx %s, 4xx %s, 5xx %s, other %s), charged %s, cut %s, in flight at close %s, closed by server %s, connect failures %s, most behind %s; p50 %s ms, p99 %s ms, max %s ms\n' \
        "$(soak_value "$c" sent)" "$(soak_value "$c" achieved_rate)" "$(soak_value "$c" whole)" \
        "$(soak_value "$c" status_2xx)" "$(soak_value "$c" status_4xx)" "$(soak_value "$c" status_5xx)" \
        "$(soak_value "$c" status_other)" "$(soak_value "$c" charged)" "$(soak_value "$c" cut)" \
        "$(soak_value "$c" in_flight_at_close)" "$(soak_value "$c" closed_by_server)" \
        "$(soak_value "$c" connect_failures)" "$(soak_value "$c" max_behind)" "$(soak_value "$c" p50_ms)" \
        "$(soak_value "$c" p99_ms)" "$(soak_value "$c" max_ms)"
    local kind
    for kind in never_reading half_closing crlf_flood slowloris; do
        printf 'abusers, %s: connections %s, ended by the server %s, billed calls sent %s, bytes sent %s, answers whole %s (2xx %s, 4xx %s, 5xx %s), charged %s\n' \
            "$kind" "$(soak_value "$a" "$kind.connections")" "$(soak_value "$a" "$kind.ended_by_server")" \
            "$(soak_value "$a" "$kind.billed_sent")" "$(soak_value "$a" "$kind.bytes_sent")" \
            "$(soak_value "$a" "$kind.whole")" "$(soak_value "$a" "$kind.status_2xx")" \
            "$(soak_value "$a" "$kind.status_4xx")" "$(soak_value "$a" "$kind.status_5xx")" \
            "$(soak_value "$a" "$kind.charged")"
    done
    printf 'abusers: never_reading: %s large documents ahead of its billed calls; half_closing: %s connections read to the end got fewer answers than calls, %s early ones read on (a billed answer already there)\n' \
        "$(soak_value "$a" blocking_documents)" "$(soak_value "$a" half_closing.short_ends)" \
        "$(soak_value "$a" half_closing.read_on)"

    # RSS: flat when the end is within 10 % of the value at one third of the run (start-up and
    # caches filling are over by then); the slope of the last two thirds by least squares.
    rss_line=$(awk -F, -v third="$((seconds / 3))" 'NR > 1 {
            t[++n] = $1; v[n] = $2; if (v[n] > peak) peak = v[n]
            if (at == "" && $1 >= third) at = $2
        } END {
            if (n < 2 || at + 0 == 0) { print "1 too few samples"; exit }
            for (i = 1; i <= n; i++) if (t[i] >= third) { k++; sx += t[i]; sy += v[i]; sxx += t[i] * t[i]; sxy += t[i] * v[i] }
            slope = (k > 1 && k * sxx != sx * sx) ? (k * sxy - sx * sy) / (k * sxx - sx * sx) * 60 : 0
            ratio = v[n] / at
            bad = (ratio > 1.10 || ratio < 0.90) ? 1 : 0
            printf "%d start %d, one third %d, peak %d, end %d kB; end / one third %.3f; slope of the last two thirds %+.1f kB/min\n",
                bad, v[1], at, peak, v[n], ratio, slope }' "$out/rss.csv")
    printf 'RSS (every 10 s, build/soak/rss.csv): %s (VmHWM %s kB): %s\n' "${rss_line#* }" "$peak_hwm" \
        "$(soak_verdict "${rss_line%% *}")"
    failed=$((failed + ${rss_line%% *}))

    local c5 a5
    c5=$(soak_value "$c" status_5xx)
    a5=$(soak_value "$a" status_5xx)
    printf '5xx answers: clients %s, abusers %s: %s\n' "$c5" "$a5" "$(soak_verdict $((c5 + a5)))"
    failed=$((failed + c5 + a5))

    local probes=0 probe_failures=$seconds
    [ -f "$work/health.out" ] && read -r probes probe_failures <"$work/health.out"
    printf '/health: %s probes answered, %s failed (a second each, 2 s timeout; build/soak/health-failures.txt): %s\n' \
        "$probes" "$probe_failures" "$(soak_verdict "$probe_failures")"
    failed=$((failed + probe_failures))

    printf 'lastrod: %s at the end: %s\n' "$([ "$alive" = yes ] && echo running || echo "NOT running (build/soak/lastrod.log)")" \
        "$(soak_verdict "$([ "$alive" = yes ] && echo 0 || echo 1)")"
    [ "$alive" = yes ] || failed=$((failed + 1))

    # Each key: its charged credits beside the answers its clients received whole, and its
    # ledger's entries by state and status (a refunded 2xx is an answer lastrod could not hand
    # over). The check is on the sum.
    local whole_c whole_a received difference key_charged key_received entries
    for kind in $soak_kinds; do
        key_charged=$(soak_usage "${soak_key_ids[$kind]}" "$month0" charged)
        if [ "$kind" = clients ]; then
            key_received=$(soak_value "$c" charged)
        else
            key_received=$(soak_value "$a" "$kind.charged")
        fi
        entries=$(sqlite3 -separator ' ' "$billing_db" "SELECT state, coalesce(status, '-'), count(*)
            FROM billing_ledger WHERE key_id = ${soak_key_ids[$kind]} GROUP BY 1, 2 ORDER BY 1, 2" 2>/dev/null |
            awk '{printf "%s%s %s: %s", (NR > 1 ? ", " : ""), $1, $2, $3}')
        printf 'ledger, %s (key %s): charged %s, received whole %s, difference %s (entries: %s)\n' "$kind" \
            "${soak_key_ids[$kind]}" "$key_charged" "$key_received" "$((key_charged - key_received))" "${entries:-none}"
    done
    whole_c=$(soak_value "$c" charged)
    whole_a=$(soak_value "$a" charged)
    received=$((whole_c + whole_a))
    difference=$((charged - received))
    # A connection reset while its billed answer races the reset: when the answer reaches
    # lastrod's kernel whole before the reset does, it is charged (docs/billing.md, "Charged,
    # but the answer lost": lastrod cannot see what the client's reset threw away), and lost.
    # So the exact check is on the populations that read to the end; the resets may each leave
    # at most the one answer that raced them.
    local resets hc_charged hc_received exact
    resets=$(soak_value "$a" half_closing.resets)
    hc_charged=$(soak_usage "${soak_key_ids[half_closing]}" "$month0" charged)
    hc_received=$(soak_value "$a" half_closing.charged)
    exact=$((difference - (hc_charged - hc_received)))
    printf 'ledger: charged %s (lastro keys usage of the soak keys; ledger_charged %s, reserved %s), X-Credits-Charged of the answers received whole %s (clients %s + abusers %s), difference %s\n' \
        "$charged" "$ledger_charged" "$reserved" "$received" "$whole_c" "$whole_a" "$difference"
    printf 'ledger, every population but the resets: difference %s: %s\n' "$exact" "$(soak_verdict "$exact")"
    [ "$exact" = 0 ] || failed=$((failed + 1))
    local raced=$((hc_charged - hc_received))
    printf 'ledger, half_closing: %s answers charged and lost to %s resets that raced them (at most one each): %s\n' \
        "$raced" "$resets" "$(soak_verdict "$([ "$raced" -ge 0 ] && [ "$raced" -le "$resets" ] && echo 0 || echo 1)")"
    { [ "$raced" -ge 0 ] && [ "$raced" -le "$resets" ]; } || failed=$((failed + 1))
    say "soak: the samples and both clients' counts are in build/soak/"
    [ "$failed" = 0 ] || {
        say "soak: a check failed"
        exit 1
    }
}
