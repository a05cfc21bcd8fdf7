#!/usr/bin/env bash
# ./dev test-packages: proof that the .deb packages install, run, upgrade and go away cleanly
# (docs/packaging.md, "The package test"). In a fresh trixie root (debootstrap minbase, made
# once and kept as a pristine tarball, unpacked anew for every run):
#   1. apt-get install ./*.deb (lastro, lastro-plugin-funds, lastro-plugin-industry,
#      lastro-plugin-series, lastro-plugin-companies, lastro-plugin-stocks, lastro-plugin-funds-dev,
#      lastro-sdk-dev, python3-lastro): dependencies come from Debian; postinst made the lastro
#      user, /var/lib/lastro and the schema;
#   2. systemd-analyze verify of the installed unit; lastrod started the way the unit starts it
#      (its ExecStart, User and Environment; there is no systemd in a chroot);
#   3. lastro sample + lastro ingest --sample as the lastro user; /health; a billed /v1 call with
#      a key made by the installed lastro; the series, companies and stocks plugins' operations
#      answer from their samples (stocks: tickers linked to their companies, adjusted quotes,
#      corporate actions); the installed Python client (python3-lastro) calls the server;
#   4. the example plugin examples/holidays, copied alone into the root, built there against
#      lastro-sdk-dev, installed, loaded and called; the funds services header of
#      lastro-plugin-funds-dev compiles there;
#   5. an upgrade to a newer build (version +b1): the same key and data answer the same, through
#      the upgraded Python client too;
#   6. apt-get remove lastro-plugin-funds: its operations, and those of industry and series (which
#      require it), leave /pricing; the example plugin, companies (which needs no other) and
#      stocks (which needs companies, not funds) stay and answer;
#   7. apt-get remove lastro-plugin-companies: stocks (which requires it) goes with it, both leave
#      /pricing; the example plugin stays;
#   8. purge of everything: the root's file list is what it was before step 1.
# Each step prints what it checks; the first failure stops the run with a non-zero exit.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Mounts made for the root die with the run: a mount namespace of its own, private (inside the
# build root, whose namespace ./dev made private already, its / is no mount point to change).
if [ -z "${LASTRO_TEST_PACKAGES_NS:-}" ]; then
    export LASTRO_TEST_PACKAGES_NS=1
    propagation=private
    [ -n "${LASTRO_IN_BUILDROOT:-}" ] && propagation=unchanged
    exec unshare --mount --propagation "$propagation" -- "$0" "$@"
fi

say() { printf 'test-packages: %s\n' "$*" >&2; }
fail() {
    printf 'test-packages: FAILED: %s\n' "$*" >&2
    exit 1
}
# shellcheck source=packaging/dev/debian_mirror.sh
. "$repo/packaging/dev/debian_mirror.sh"

work="$repo/build/test-packages"
root="$work/root"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/lastro"
pristine="$cache/trixie-minbase.tar"
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugin_dir="/usr/lib/$triplet/lastro/plugins"
pid=""

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
as_lastro() { in_root runuser -u lastro -- env LASTRO_CONFIG=/etc/lastro/lastro.yaml "$@"; }
apt_root() { in_root DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0 "$@"; }

cleanup() {
    [ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null || true
    umount -R "$root/proc" "$root/dev" 2>/dev/null || true
}
trap cleanup EXIT

# ---- packages: this tree's version and a newer build of it ----
build_packages() {
    say "building the packages (./dev package) and a newer build (+b1)"
    "$repo/packaging/package.sh" >/dev/null
    rm -rf "$work/v1" "$work/v2"
    mkdir -p "$work"
    cp -a "$repo/build/package/out" "$work/v1"
    LASTRO_PACKAGE_VERSION_SUFFIX=+b1 "$repo/packaging/package.sh" >/dev/null
    cp -a "$repo/build/package/out" "$work/v2"
    # build/package/out holds this tree's version again, as ./dev package leaves it.
    rm -rf "$repo/build/package/out"
    cp -a "$work/v1" "$repo/build/package/out"
}

# ---- the root ----
fresh_root() {
    if [ ! -f "$pristine" ]; then
        local mirror
        mirror=$(debian_mirror) || fail "no Debian mirror in the apt configuration; set LASTRO_DEBIAN_MIRROR"
        say "creating the pristine trixie root from $mirror (once)"
        rm -rf "$cache/trixie-minbase.partial"
        mkdir -p "$cache"
        debootstrap --variant=minbase trixie "$cache/trixie-minbase.partial" "$mirror" >"$cache/trixie-minbase.log" 2>&1 ||
            fail "debootstrap failed (log: $cache/trixie-minbase.log)"
        tar -C "$cache/trixie-minbase.partial" -cf "$pristine.partial" .
        mv "$pristine.partial" "$pristine"
        rm -rf "$cache/trixie-minbase.partial" "$cache/trixie-minbase.log"
    fi
    rm -rf "$root"
    mkdir -p "$root"
    tar -C "$root" -xf "$pristine"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    apt_root update >/dev/null
}

# Every path of the root but the package manager's own records, caches and logs, which change
# by design (the list of what is installed, downloaded .debs, apt's logs), and the backups the
# shadow tools keep of the account files whenever an account changes (/etc/passwd- ...; the
# account files themselves are checked for the lastro user and group).
file_list() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./sys -o -path ./run -o -path ./tmp \
        -o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache -o -path ./var/log \) -prune -o -print) |
        grep -v -x -e './etc/passwd-' -e './etc/group-' -e './etc/shadow-' -e './etc/gshadow-' |
        LC_ALL=C sort
}

# ---- lastrod, started as its unit starts it ----
unit_value() { sed -n "s/^$1=//p" "$root/usr/lib/systemd/system/lastro.service" | head -n 1; }

start_lastrod() {
    local exec user environment
    exec=$(unit_value ExecStart)
    user=$(unit_value User)
    environment=$(unit_value Environment)
    [ -n "$exec" ] && [ -n "$user" ] || fail "lastro.service has no ExecStart or User"
    : >"$work/lastrod.log"
    # The configuration's port may be taken on this machine: the kernel picks one. chroot, env
    # and setpriv each exec the next (no process in between), so $pid is lastrod's.
    # shellcheck disable=SC2086
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        setpriv --reuid="$user" --regid="$user" --init-groups env $environment LASTRO_LISTEN=127.0.0.1:0 \
        $exec >"$work/lastrod.log" 2>&1 &
    pid=$!
    local i
    for i in $(seq 1 100); do
        port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/lastrod.log" | head -n 1)
        [ -n "$port" ] && break
        kill -0 "$pid" 2>/dev/null || {
            cat "$work/lastrod.log" >&2
            fail "lastrod exited at start"
        }
        sleep 0.2
    done
    [ -n "$port" ] || fail "lastrod did not say where it listens"
    base="http://127.0.0.1:$port"
    [ "$(readlink "/proc/$pid/exe")" = "$root$exec" ] || [ "$(readlink "/proc/$pid/exe")" = "$exec" ] ||
        fail "process $pid is not $exec"
    [ "$(stat -c %u "/proc/$pid")" = "$(in_root id -u "$user")" ] || fail "lastrod does not run as the $user user"
}

# As systemd stops it: SIGTERM, then lastrod drains and exits 0.
stop_lastrod() {
    [ -n "$pid" ] || return 0
    local stopping=$pid
    pid=""
    kill -TERM "$stopping"
    wait "$stopping" || {
        cat "$work/lastrod.log" >&2
        fail "lastrod did not exit cleanly on SIGTERM"
    }
}

# get PATH [KEY]: the body, with the status on the last line.
get() {
    local args=(-s -w '\n%{http_code}')
    [ -n "${2:-}" ] && args+=(-H "Authorization: Bearer $2")
    curl "${args[@]}" "$base$1"
}
expect_status() {
    local want=$1 path=$2 key=${3:-} answer
    answer=$(get "$path" "$key")
    [ "$(tail -n 1 <<<"$answer")" = "$want" ] || fail "GET $path: expected $want, got: $answer"
    sed '$d' <<<"$answer"
}
# json_rows FIELD < BODY: the body is a JSON envelope whose `data` is a non-empty array of
# objects, each with FIELD; prints its rows, one JSON object a line (python3 is in the build
# environment, packaging/buildroot/packages.txt).
json_rows() {
    python3 -c '
import json, sys
answer = json.load(sys.stdin)
data = answer.get("data") if isinstance(answer, dict) else None
if not isinstance(data, list) or not data:
    sys.exit("data is not a non-empty array")
if not all(isinstance(row, dict) and sys.argv[1] in row for row in data):
    sys.exit("a row of data has no " + sys.argv[1])
for row in data:
    print(json.dumps(row, sort_keys=True))
' "$1"
}
# series_answers KEY: the series plugin serves SGS 433 (IPCA), the CDI's daily series and a
# fund's daily series from the ingested sample; the IPCA rows are kept in $work/ipca.txt
# (compared after the upgrade).
series_answers() {
    local path
    path="/v1/macroeconomia/433?limit=5"
    expect_status 200 "$path" "$1" >"$work/ipca.json"
    json_rows value <"$work/ipca.json" >"$work/ipca.txt" || fail "GET $path answered no rows: $(cat "$work/ipca.json")"
    path="/v1/benchmarks/cdi/serie-diaria?limit=3"
    expect_status 200 "$path" "$1" >"$work/cdi.json"
    json_rows factor <"$work/cdi.json" >/dev/null || fail "GET $path answered no rows: $(cat "$work/cdi.json")"
    path="/v1/series-diarias/02865611000128/desempenho?from_date=2026-01&limit=3"
    expect_status 200 "$path" "$1" >"$work/daily.json"
    json_rows pct_of_cdi <"$work/daily.json" >/dev/null || fail "GET $path answered no rows: $(cat "$work/daily.json")"
}

# companies_answers KEY: the companies plugin serves the registry from its sample (both snapshots
# applied: a company has two situations), and finds an accented name without its accents.
companies_answers() {
    local path
    path="/v1/companhias?q=siderurgica%20acao"
    expect_status 200 "$path" "$1" >"$work/companhias.json"
    json_rows cvm_code <"$work/companhias.json" >/dev/null || fail "GET $path answered no rows: $(cat "$work/companhias.json")"
    path="/v1/companhias?situation=cancelada&cancelled_from=2026-08-01"
    expect_status 200 "$path" "$1" >"$work/cancelled.json"
    grep -q '"situation":"ATIVO"' "$work/cancelled.json" ||
        fail "GET $path: no situation history through both snapshots: $(cat "$work/cancelled.json")"
}

# stocks_answers KEY: the stocks plugin serves its sample: /v1/acoes lists ordinary shares whose
# company (the companies plugin's FCA) is linked, the first such ticker's history answers with the
# total-return adjustment, and /v1/proventos lists corporate actions. The rows are kept in
# $work/acoes.txt (ticker and company), $work/cotacoes.txt and $work/proventos.txt (compared
# after the upgrade).
stocks_answers() {
    local path ticker
    path="/v1/acoes?class=ON&limit=100"
    expect_status 200 "$path" "$1" >"$work/acoes.json"
    json_rows ticker <"$work/acoes.json" >"$work/acoes-rows.txt" || fail "GET $path answered no rows: $(cat "$work/acoes.json")"
    python3 -c '
import json, sys
for line in sys.stdin:
    row = json.loads(line)
    company = row.get("company")
    if isinstance(company, dict) and company.get("cvm_code"):
        print(row["ticker"], company["cvm_code"], company.get("cnpj"))
' <"$work/acoes-rows.txt" >"$work/acoes.txt"
    ticker=$(head -n 1 "$work/acoes.txt" | cut -d ' ' -f 1)
    [ -n "$ticker" ] || fail "GET $path: no ticker linked to its company: $(cat "$work/acoes.json")"
    path="/v1/acoes/$ticker/cotacoes?adjustment=total&limit=20"
    expect_status 200 "$path" "$1" >"$work/cotacoes.json"
    json_rows factor <"$work/cotacoes.json" >"$work/cotacoes.txt" || fail "GET $path answered no rows: $(cat "$work/cotacoes.json")"
    path="/v1/proventos?limit=20"
    expect_status 200 "$path" "$1" >"$work/proventos.json"
    json_rows id <"$work/proventos.json" >"$work/proventos-rows.txt" ||
        fail "GET $path answered no rows: $(cat "$work/proventos.json")"
    grep -o '"id": "[^"]*"' "$work/proventos-rows.txt" >"$work/proventos.txt"
}

# python_client_answers KEY: the installed python3-lastro (its modules byte-compiled by its
# postinst, imported from /usr/lib/python3/dist-packages, not from the source tree) calls the
# server once: the funds of $work/fundos.json (curl's /v1/fundos?limit=5), billed.
python_client_answers() {
    [ -n "$(ls "$root"/usr/lib/python3/dist-packages/lastro/__pycache__/client.*.pyc 2>/dev/null)" ] ||
        fail "python3-lastro's postinst did not byte-compile its modules"
    in_root env LASTRO_BASE_URL="$base" LASTRO_API_KEY="$1" python3 -c '
import os, lastro
assert lastro.__file__ == "/usr/lib/python3/dist-packages/lastro/__init__.py", lastro.__file__
page = lastro.Client(os.environ["LASTRO_BASE_URL"], os.environ["LASTRO_API_KEY"]).funds_search(limit=5)
assert page.status == 200 and page.credits.charged == 1 and page.has_more, page
for fund in page.data:
    print(fund["fund_id"])
' >"$work/python-client.txt" 2>&1 || fail "the installed Python client: $(cat "$work/python-client.txt")"
    diff <(python3 -c 'import json, sys; print(*(row["fund_id"] for row in json.load(sys.stdin)["data"]), sep="\n")' \
        <"$work/fundos.json") "$work/python-client.txt" ||
        fail "the installed Python client answered other funds than /v1/fundos?limit=5"
}

# ---- the steps ----
# debs v1|v2: the packages of that build as the root sees them (/tmp/v1/...), debug symbols aside.
debs() {
    local f
    for f in "$work/$1"/lastro*_*.deb "$work/$1"/python3-lastro_*.deb; do
        case $f in *-dbgsym_*) ;; *) echo "/tmp/$1/$(basename "$f")" ;; esac
    done
}

step_install() {
    say "1. apt-get install ./*.deb into a fresh root"
    mkdir -p "$root/tmp/v1"
    cp "$work"/v1/lastro*.deb "$work"/v1/python3-lastro_*.deb "$root/tmp/v1/"
    # What Debian brings along, as apt-get install ./*.deb resolves it (simulated), with the
    # example's build tools, goes in first: the file list before the installation holds them,
    # so that the purge is compared with exactly what our packages and their scripts made (a
    # Debian package such as ca-certificates leaves files of its own behind when purged).
    local needed
    needed=$(apt_root install -s $(debs v1) cmake ninja-build | awk '$1 == "Inst" && $2 !~ /^(python3-)?lastro/ { print $2 }')
    [ -n "$needed" ] || fail "apt-get resolved no dependency for the packages"
    # shellcheck disable=SC2086
    apt_root install $needed >"$work/install.log" 2>&1 || {
        tail -n 30 "$work/install.log" >&2
        fail "apt-get install of the dependencies failed (log: $work/install.log)"
    }
    file_list >"$work/files-before.txt"
    mkdir -p "$work/accounts-before"
    cp "$root"/etc/{passwd,group,shadow,gshadow} "$work/accounts-before/"
    apt_root install $(debs v1) >>"$work/install.log" 2>&1 || {
        tail -n 30 "$work/install.log" >&2
        fail "apt-get install failed (log: $work/install.log)"
    }
    in_root getent passwd lastro | grep -q ':/var/lib/lastro:/usr/sbin/nologin$' || fail "no lastro system user"
    [ "$(in_root stat -c '%U:%G %a' /var/lib/lastro)" = "lastro:lastro 750" ] || fail "/var/lib/lastro is not lastro's, mode 750"
    [ -s "$root/var/lib/lastro/lastro.db" ] || fail "postinst did not migrate the database"
    [ "$(in_root stat -c '%U:%G %a' /var/lib/lastro/lastro-billing.db)" = "lastro:lastro 600" ] ||
        fail "postinst did not make billing's database /var/lib/lastro/lastro-billing.db, lastro's, mode 600"
    [ "$(in_root stat -c '%U:%G %a' /var/lib/lastro/cursor.key)" = "lastro:lastro 600" ] ||
        fail "postinst did not make the cursor secret /var/lib/lastro/cursor.key, lastro's, mode 600"
    in_root dpkg-query -W -f '${Conffiles}\n' lastro | grep -q '/etc/lastro/lastro.yaml' || fail "lastro.yaml is not a conffile"
    [ -f "$root$plugin_dir/funds.yaml" ] && [ -f "$root$plugin_dir/liblastro-funds.so" ] || fail "funds plugin not in $plugin_dir"
    # Read whole first: `grep -q` leaves at the first match, and under pipefail the writer's
    # broken pipe would fail the check once the listing outgrows one write.
    local plugins
    plugins=$(as_lastro lastro plugins) || fail "lastro plugins failed: $plugins"
    grep -q '^funds' <<<"$plugins" || fail "lastro plugins does not list funds: $plugins"
    grep -q '^industry' <<<"$plugins" || fail "lastro plugins does not list industry: $plugins"
    [ -f "$root$plugin_dir/series.yaml" ] && [ -f "$root$plugin_dir/liblastro-series.so" ] || fail "series plugin not in $plugin_dir"
    grep -q '^series' <<<"$plugins" || fail "lastro plugins does not list series: $plugins"
    [ -f "$root$plugin_dir/companies.yaml" ] && [ -f "$root$plugin_dir/liblastro-companies.so" ] ||
        fail "companies plugin not in $plugin_dir"
    grep -q '^companies' <<<"$plugins" || fail "lastro plugins does not list companies: $plugins"
    [ -f "$root$plugin_dir/stocks.yaml" ] && [ -f "$root$plugin_dir/liblastro-stocks.so" ] ||
        fail "stocks plugin not in $plugin_dir"
    grep -q '^stocks' <<<"$plugins" || fail "lastro plugins does not list stocks: $plugins"
}

step_unit() {
    say "2. systemd-analyze verify lastro.service; lastrod as the lastro user"
    # The unit itself: its keys and values, and its ExecStart in the root. The root runs no
    # systemd, so the units every service depends on (sysinit.target...) are not there to check,
    # and has no man(1) to look up the Documentation= page with (the file is checked instead).
    systemd-analyze verify --root="$root" --recursive-errors=no --man=no lastro.service ||
        fail "systemd-analyze verify lastro.service"
    # The daily sync: its timer and the oneshot service it starts (docs/sync.md).
    systemd-analyze verify --root="$root" --recursive-errors=no --man=no lastro-sync.timer lastro-sync.service ||
        fail "systemd-analyze verify lastro-sync.timer lastro-sync.service"
    grep -qx 'ExecStart=/usr/bin/lastro sync' "$root/usr/lib/systemd/system/lastro-sync.service" ||
        fail "lastro-sync.service does not run lastro sync"
    [ -L "$root/etc/systemd/system/timers.target.wants/lastro-sync.timer" ] ||
        fail "lastro-sync.timer is not enabled"
    [ -f "$root/usr/share/man/man1/lastrod.1.gz" ] || fail "no lastrod(1) man page, which the unit names"
    local key
    for key in 'User=lastro' 'ProtectSystem=strict' 'ReadWritePaths=/var/lib/lastro' 'NoNewPrivileges=yes' \
        'PrivateTmp=yes' 'Restart=on-failure'; do
        grep -qx "$key" "$root/usr/lib/systemd/system/lastro.service" || fail "lastro.service lacks $key"
    done
    start_lastrod
}

step_serve() {
    say "3. sample, ingest, /health and a billed /v1 call"
    as_lastro lastro sample --out /var/lib/lastro/sample >/dev/null
    as_lastro lastro ingest --sample /var/lib/lastro/sample >"$work/ingest.log" 2>&1 || {
        cat "$work/ingest.log" >&2
        fail "lastro ingest --sample"
    }
    expect_status 200 /health >/dev/null
    key=$(as_lastro lastro keys create --name package-test --credits 1000)
    [ -n "$key" ] || fail "lastro keys create printed no key"
    local headers
    headers=$(curl -s -D - -o "$work/fundos.json" -H "Authorization: Bearer $key" "$base/v1/fundos?limit=5")
    grep -q '^HTTP/1.1 200' <<<"$headers" || fail "GET /v1/fundos: $headers"
    grep -qi '^X-Credits-Charged: 1' <<<"$headers" || fail "GET /v1/fundos was not billed: $headers"
    grep -q '"fund_id"' "$work/fundos.json" || fail "GET /v1/fundos answered no fund"
    expect_status 401 /v1/fundos >/dev/null
    # The series plugin (scope series; the key has every scope) from its own sample files.
    series_answers "$key"
    companies_answers "$key"
    stocks_answers "$key"
    python_client_answers "$key"
    # A rotation keeps the previous secret beside the new one, in a file still lastro's, 0600.
    as_lastro lastro cursors rotate 2>/dev/null || fail "lastro cursors rotate"
    [ "$(in_root stat -c '%U:%G %a' /var/lib/lastro/cursor.key)" = "lastro:lastro 600" ] ||
        fail "lastro cursors rotate left /var/lib/lastro/cursor.key not lastro's, mode 600"
    [ "$(wc -l <"$root/var/lib/lastro/cursor.key")" = 2 ] || fail "the rotated cursor secret file does not hold 2 secrets"
    # Every file the server and the CLI wrote is the lastro user's.
    [ -z "$(in_root find /var/lib/lastro ! -user lastro)" ] || fail "files under /var/lib/lastro not owned by lastro"
}

step_example() {
    say "4. the example plugin, built against lastro-sdk-dev alone"
    rm -rf "$root/tmp/holidays"
    cp -a "$repo/examples/holidays" "$root/tmp/holidays"
    in_root sh -c 'cmake -S /tmp/holidays -B /tmp/holidays/build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
        cmake --build /tmp/holidays/build && cmake --install /tmp/holidays/build' >"$work/example.log" 2>&1 || {
        tail -n 30 "$work/example.log" >&2
        fail "the example plugin did not build against the installed SDK (log: $work/example.log)"
    }
    grep -q "Installing: $plugin_dir/liblastro-holidays.so" "$work/example.log" || fail "the example did not install into $plugin_dir"
    stop_lastrod
    as_lastro lastro db migrate >/dev/null
    as_lastro lastro sample --out /var/lib/lastro/sample-holidays >/dev/null
    as_lastro lastro ingest example.holidays /var/lib/lastro/sample-holidays/feriados.csv >/dev/null
    start_lastrod
    expect_status 200 "/v1/example/holidays?year=2025" "$key" >"$work/holidays.json"
    grep -q '"2025-04-21"' "$work/holidays.json" && grep -q 'Tiradentes' "$work/holidays.json" ||
        fail "the example plugin answered: $(cat "$work/holidays.json")"
    # A plugin that requires funds compiles against its installed services header alone.
    printf '#include <lastro/funds/services.hpp>\nstatic_assert(sizeof(lastro::funds::LocatedFund) > 0);\n' \
        >"$root/tmp/uses_funds.cpp"
    in_root g++ -std=c++20 -fsyntax-only /tmp/uses_funds.cpp >>"$work/example.log" 2>&1 ||
        fail "the installed lastro/funds/services.hpp does not compile (log: $work/example.log)"
    rm -f "$root/tmp/uses_funds.cpp"
}

step_upgrade() {
    say "5. upgrade to the newer build, data kept"
    stop_lastrod # as the unit's prerm stops it
    mkdir -p "$root/tmp/v2"
    cp "$work"/v2/lastro*.deb "$work"/v2/python3-lastro_*.deb "$root/tmp/v2/"
    apt_root install $(debs v2) >>"$work/install.log" 2>&1 || fail "apt-get install of the newer build (log: $work/install.log)"
    local version
    version=$(in_root dpkg-query -W -f '${Version}' lastro)
    case "$version" in *+b1) ;; *) fail "lastro is $version after the upgrade" ;; esac
    start_lastrod
    expect_status 200 "/v1/fundos?limit=5" "$key" >"$work/fundos-after.json"
    diff <(grep -o '"fund_id":"[^"]*"' "$work/fundos.json") <(grep -o '"fund_id":"[^"]*"' "$work/fundos-after.json") ||
        fail "the funds answered differently after the upgrade"
    grep -q Tiradentes <<<"$(expect_status 200 "/v1/example/holidays?year=2025" "$key")" || fail "the example's data is gone"
    cp "$work/ipca.txt" "$work/ipca-before.txt"
    series_answers "$key"
    diff "$work/ipca-before.txt" "$work/ipca.txt" || fail "the series answered differently after the upgrade"
    cp "$work/companhias.json" "$work/companhias-before.json"
    companies_answers "$key"
    diff <(grep -o '"cvm_code":[0-9]*' "$work/companhias-before.json") <(grep -o '"cvm_code":[0-9]*' "$work/companhias.json") ||
        fail "the companies answered differently after the upgrade"
    local f
    for f in acoes cotacoes proventos; do
        cp "$work/$f.txt" "$work/$f-before.txt"
    done
    stocks_answers "$key"
    for f in acoes cotacoes proventos; do
        diff "$work/$f-before.txt" "$work/$f.txt" || fail "the stocks plugin's $f answered differently after the upgrade"
    done
    version=$(in_root dpkg-query -W -f '${Version}' python3-lastro)
    case "$version" in *+b1) ;; *) fail "python3-lastro is $version after the upgrade" ;; esac
    python_client_answers "$key"
}

step_remove_plugin() {
    say "6. apt-get remove lastro-plugin-funds: its operations, and its dependents' (industry, series), leave /pricing"
    grep -q '"funds\.' <<<"$(expect_status 200 /pricing)" || fail "/pricing lists no funds operation before the removal"
    stop_lastrod
    apt_root remove lastro-plugin-funds >>"$work/install.log" 2>&1 || fail "apt-get remove lastro-plugin-funds"
    [ ! -e "$root$plugin_dir/funds.yaml" ] || fail "funds.yaml is still installed"
    # industry requires funds: apt removes it with funds (Depends), so lastrod never sees it alone.
    [ ! -e "$root$plugin_dir/industry.yaml" ] || fail "industry.yaml is still installed without funds"
    # and lastro-plugin-funds-dev with it (its header names funds' services).
    [ ! -e "$root/usr/include/lastro/funds/services.hpp" ] || fail "the funds services header stayed without funds"
    start_lastrod # as the package's trigger restarts it under systemd
    local pricing
    pricing=$(expect_status 200 /pricing)
    ! grep -q '"funds\.' <<<"$pricing" || fail "/pricing still lists funds operations: $pricing"
    ! grep -q '"industry\.' <<<"$pricing" || fail "/pricing still lists industry operations: $pricing"
    grep -q '"holidays.list"' <<<"$pricing" || fail "/pricing lost the example plugin: $pricing"
    expect_status 404 "/v1/fundos?limit=5" "$key" >/dev/null
    # series requires funds too (the registry's ids of /identidades): it goes with it.
    [ ! -e "$root$plugin_dir/series.yaml" ] || fail "series.yaml is still installed without funds"
    ! grep -q '"series\.' <<<"$pricing" || fail "/pricing still lists series operations: $pricing"
    # companies requires no plugin: it stays, and answers.
    grep -q '"companies.list"' <<<"$pricing" || fail "/pricing lost the companies plugin: $pricing"
    companies_answers "$key"
    # stocks requires companies, not funds: it stays, and answers.
    [ -e "$root$plugin_dir/stocks.yaml" ] || fail "stocks.yaml went with funds"
    grep -q '"stocks.list"' <<<"$pricing" || fail "/pricing lost the stocks plugin: $pricing"
    stocks_answers "$key"
}

step_remove_companies() {
    say "7. apt-get remove lastro-plugin-companies: stocks (which requires it) goes with it, both leave /pricing"
    stop_lastrod
    apt_root remove lastro-plugin-companies >>"$work/install.log" 2>&1 || fail "apt-get remove lastro-plugin-companies"
    [ ! -e "$root$plugin_dir/companies.yaml" ] || fail "companies.yaml is still installed"
    # stocks requires companies: apt removes it with companies (Depends), so lastrod never sees it alone.
    [ ! -e "$root$plugin_dir/stocks.yaml" ] && [ ! -e "$root$plugin_dir/liblastro-stocks.so" ] ||
        fail "the stocks plugin is still installed without companies"
    ! in_root dpkg-query -W -f '${db:Status-Abbrev}' lastro-plugin-stocks 2>/dev/null | grep -q '^ii' ||
        fail "apt did not remove lastro-plugin-stocks with lastro-plugin-companies"
    start_lastrod # as the package's trigger restarts it under systemd
    local pricing
    pricing=$(expect_status 200 /pricing)
    ! grep -q '"companies\.' <<<"$pricing" || fail "/pricing still lists companies operations: $pricing"
    ! grep -q '"stocks\.' <<<"$pricing" || fail "/pricing still lists stocks operations: $pricing"
    grep -q '"holidays.list"' <<<"$pricing" || fail "/pricing lost the example plugin: $pricing"
    expect_status 404 "/v1/acoes?limit=5" "$key" >/dev/null
    expect_status 404 "/v1/companhias?limit=5" "$key" >/dev/null
}

step_purge() {
    say "8. purge: no file left behind"
    stop_lastrod
    # The example was installed by hand (cmake --install): removed by hand, from its manifest.
    in_root sh -c 'xargs -d "\n" rm -f </tmp/holidays/build/install_manifest.txt'
    rm -rf "$root/tmp/holidays" "$root/tmp/v1" "$root/tmp/v2"
    apt_root purge lastro lastro-plugin-funds lastro-plugin-industry lastro-plugin-series lastro-plugin-companies \
        lastro-plugin-stocks lastro-sdk-dev python3-lastro \
        >>"$work/install.log" 2>&1 || fail "apt-get purge"
    [ ! -e "$root$plugin_dir/series.yaml" ] && [ ! -e "$root$plugin_dir/liblastro-series.so" ] ||
        fail "the series plugin's files are still in $plugin_dir after the purge"
    [ ! -e "$root$plugin_dir/companies.yaml" ] && [ ! -e "$root$plugin_dir/liblastro-companies.so" ] ||
        fail "the companies plugin's files are still in $plugin_dir after the purge"
    [ ! -e "$root$plugin_dir/stocks.yaml" ] && [ ! -e "$root$plugin_dir/liblastro-stocks.so" ] ||
        fail "the stocks plugin's files are still in $plugin_dir after the purge"
    ! in_root getent passwd lastro >/dev/null || fail "the lastro user is still there"
    ! in_root getent group lastro >/dev/null || fail "the lastro group is still there"
    local f
    for f in passwd group shadow gshadow; do
        cmp -s "$work/accounts-before/$f" "$root/etc/$f" || fail "/etc/$f differs from before the installation"
    done
    file_list >"$work/files-after.txt"
    if ! diff -u "$work/files-before.txt" "$work/files-after.txt" >"$work/files.diff"; then
        cat "$work/files.diff" >&2
        fail "the root's files differ from before the installation (above)"
    fi
}

main() {
    [ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot, mounts)"
    mkdir -p "$work"
    if [ "${1:-}" != --no-build ]; then
        build_packages
    fi
    [ -n "$(ls "$work"/v1/*.deb 2>/dev/null)" ] && [ -n "$(ls "$work"/v2/*.deb 2>/dev/null)" ] ||
        fail "no packages in $work/v1 and $work/v2"
    fresh_root
    step_install
    step_unit
    step_serve
    step_example
    step_upgrade
    step_remove_plugin
    step_remove_companies
    step_purge
    say "passed: installed, served, extended, upgraded, reduced and purged without a trace"
}

main "$@"
