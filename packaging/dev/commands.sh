#!/usr/bin/env bash
# The commands of ./dev, run inside the trixie environment (the build root or a trixie host).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"

say() { printf 'dev: %s\n' "$*" >&2; }
die() {
    printf 'dev: %s\n' "$*" >&2
    exit 1
}

preset=${LASTRO_PRESET:-debug}
bin="$repo/build/$preset/bin"
# The configuration is etc/lastro.yaml (data in var/) unless the user names another; the data
# directory is the one it resolves to, LASTRO_DATA_DIR applied (`lastro config`).
export LASTRO_CONFIG=${LASTRO_CONFIG:-$repo/etc/lastro.yaml}

build() {
    if [ ! -f "build/$preset/build.ninja" ]; then
        cmake --preset "$preset" >/dev/null
    fi
    cmake --build --preset "$preset"
}

lastro() { "$bin/lastro" "$@"; }

# Inside the build root, lastro may write only where the host sees it: under a directory ./dev
# shared (LASTRO_DEV_SHARED: the repository, ../shared, and the paths named in LASTRO_DATA_DIR,
# LASTRO_CONFIG and LASTRO_DATABASE). A configuration file that names another path (an absolute
# data_dir, SQLite file, cursor secret file or access log) is refused before anything is written there.
config_value() { lastro config | sed -n "s/^$1 //p"; }

check_shared_paths() {
    [ -n "${LASTRO_IN_BUILDROOT:-}" ] && [ -n "${LASTRO_DEV_SHARED:-}" ] || return 0
    local key value dir ok listing
    local -a dirs
    IFS=: read -r -a dirs <<<"$LASTRO_DEV_SHARED"
    listing=$(lastro config) || exit 1 # lastro said what is wrong with the configuration
    while read -r key value; do
        case $key in data_dir | sqlite_path | sqlite_billing_path | cursor_secret_file | access_log) ;; *) continue ;; esac
        ok=0
        for dir in "${dirs[@]}"; do
            [ -n "$dir" ] || continue
            case "$value/" in "$dir"/*) ok=1 ;; esac
        done
        [ $ok = 1 ] || die "$key $value (from $LASTRO_CONFIG) is outside what ./dev shares with the build root; name it in LASTRO_DATA_DIR or LASTRO_DATABASE=sqlite:PATH, or keep it under $repo"
    done <<<"$listing"
}

# The main job: a server on the embedded database with the sample data, ready for curl.
run() {
    build
    check_shared_paths
    local data_dir
    data_dir=$(config_value data_dir)
    mkdir -p "$data_dir"
    lastro db migrate
    # The sample is written again whenever the loaded plugins (versions, datasets) change.
    local plugins
    plugins=$(lastro plugins)
    if [ "$(cat "$data_dir/sample/.plugins" 2>/dev/null)" != "$plugins" ]; then
        say "generating the sample data into $data_dir/sample"
        rm -rf "$data_dir/sample"
        lastro sample --out "$data_dir/sample"
        printf '%s\n' "$plugins" >"$data_dir/sample/.plugins"
    fi
    # Every dataset the plugins' manifests declare sample files for, once (a dataset with a
    # data release already is skipped), in dependency order.
    lastro ingest --sample "$data_dir/sample" --skip-ingested
    local key_file="$data_dir/demo-api-key"
    if [ ! -s "$key_file" ] || ! lastro keys check "$(cat "$key_file")" >/dev/null 2>&1; then
        lastro keys create --name demo --credits 100000 --rate 600 >"$key_file.tmp"
        mv "$key_file.tmp" "$key_file"
        chmod 600 "$key_file"
    fi
    say "demo API key (also in $key_file): $(cat "$key_file")"
    say "try: curl -H \"Authorization: Bearer \$(cat var/demo-api-key)\" \"127.0.0.1:8080/v1/fundos?q=credito\""
    exec "$bin/lastrod"
}

# The typed clients, generated again from the OpenAPI document of the plugins' manifests (after
# a manifest changes; docs/clients.md). The tests fail while a checked-in client is stale.
clients() {
    build >/dev/null
    local spec="$repo/build/$preset/openapi.json"
    lastro openapi >"$spec"
    local client
    for client in "$repo"/clients/*/; do
        "$client/generate.sh" "$spec"
        say "regenerated ${client#"$repo/"} from the manifests' OpenAPI document"
    done
}

test_all() {
    build
    ctest --preset "$preset" "$@"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
run) run ;;
test) test_all "$@" ;;
build) build ;;
clients) clients ;;
shell) if [ $# -gt 0 ]; then exec bash -c "$*"; else exec bash -i; fi ;;
lastro)
    build >/dev/null
    check_shared_paths
    lastro "$@"
    ;;
bench) exec "$repo/bench/run.sh" "$@" ;;
fuzz) exec "$repo/fuzz/run.sh" "$@" ;;
package) exec "$repo/packaging/package.sh" "$@" ;;
test-packages) exec "$repo/packaging/test-packages.sh" "$@" ;;
*) die "usage: ./dev run | test | build | clients | shell [CMD] | lastro ARGS... | bench [NAME] | fuzz [TARGET] [SECONDS] | package [--check-reproducible] | test-packages" ;;
esac
