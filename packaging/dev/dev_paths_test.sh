#!/usr/bin/env bash
# ./dev and the paths a user names (docs/development.md, "Paths outside the repository"): made
# absolute against the caller's directory, system directories refused, and a configuration file
# that names a path ./dev does not share refused before anything is written. Run by ctest
# (label dev) inside the build environment; each case prints what it checks.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check DESCRIPTION EXPECTED-EXIT PATTERN -- COMMAND...
    local what=$1 expected=$2 pattern=$3
    shift 4
    local out code
    out=$("$@" 2>&1)
    code=$?
    if { [ "$expected" = 0 ] && [ $code != 0 ]; } || { [ "$expected" != 0 ] && [ $code = 0 ]; } ||
        ! grep -qF -- "$pattern" <<<"$out"; then
        printf 'FAIL %s: exit %s, output:\n%s\n' "$what" "$code" "$out"
        failures=$((failures + 1))
    else
        printf 'ok   %s\n' "$what"
    fi
}

check "a system directory is refused" 1 "dev: LASTRO_DATA_DIR=/usr/lastro: a system directory cannot be shared" -- \
    env LASTRO_DATA_DIR=/usr/lastro "$repo/dev" lastro config
check "the root directory is refused" 1 "dev: LASTRO_DATA_DIR=/: a system directory" -- \
    env LASTRO_DATA_DIR=/ "$repo/dev" lastro config
check "a missing configuration file is refused" 1 "dev: LASTRO_CONFIG=$work/none.yaml: no such file" -- \
    env LASTRO_CONFIG="$work/none.yaml" "$repo/dev" lastro config
mkdir -p "$work/caller"
check "a relative data directory is the caller's" 0 "data_dir $work/caller/data" -- \
    bash -c "cd '$work/caller' && LASTRO_DATA_DIR=data '$repo/dev' lastro config"
check "a relative SQLite file is the caller's" 0 "sqlite_path $work/caller/db/x.db" -- \
    bash -c "cd '$work/caller' && LASTRO_DATABASE=sqlite:db/x.db '$repo/dev' lastro config"

# A configuration naming a data directory elsewhere (not under the configuration's own
# directory, which ./dev shares): inside the build root the host would not see it, so it is
# refused (LASTRO_IN_BUILDROOT marks the build root, whose commands check this).
mkdir -p "$work/cfg"
sed -e "s|^data_dir: .*|data_dir: $work/elsewhere|" \
    -e "s|manifest_dirs: .*|manifest_dirs: [\"$repo/build/${LASTRO_PRESET:-debug}/plugins\"]|" \
    "$repo/etc/lastro.yaml" >"$work/cfg/lastro.yaml"
check "a configuration naming an unshared data directory is refused" 1 \
    "dev: data_dir $work/elsewhere (from $work/cfg/lastro.yaml) is outside what ./dev shares with the build root" -- \
    env LASTRO_IN_BUILDROOT=1 LASTRO_CONFIG="$work/cfg/lastro.yaml" "$repo/dev" lastro db migrate
[ ! -e "$work/elsewhere" ] || { echo "FAIL the refused data directory was written"; failures=$((failures + 1)); }
check "the same directory named in LASTRO_DATA_DIR is shared" 0 "data_dir $work/elsewhere" -- \
    env LASTRO_IN_BUILDROOT=1 LASTRO_CONFIG="$work/cfg/lastro.yaml" LASTRO_DATA_DIR="$work/elsewhere" "$repo/dev" lastro config

# The cursor secret file is written by lastro too: one the build root would keep to itself is
# refused the same way.
mkdir -p "$work/cfg-key"
sed -e "s|^data_dir: .*|data_dir: $work/cfg-key/var|" \
    -e "s|manifest_dirs: .*|manifest_dirs: [\"$repo/build/${LASTRO_PRESET:-debug}/plugins\"]|" \
    "$repo/etc/lastro.yaml" >"$work/cfg-key/lastro.yaml"
printf 'cursors: {secret_file: "%s"}\n' "$work/elsewhere-key/cursor.key" >>"$work/cfg-key/lastro.yaml"
check "a configuration naming an unshared cursor secret file is refused" 1 \
    "dev: cursor_secret_file $work/elsewhere-key/cursor.key (from $work/cfg-key/lastro.yaml) is outside what ./dev shares with the build root" -- \
    env LASTRO_IN_BUILDROOT=1 LASTRO_CONFIG="$work/cfg-key/lastro.yaml" "$repo/dev" lastro db migrate
[ ! -e "$work/elsewhere-key" ] || { echo "FAIL the refused cursor secret file was written"; failures=$((failures + 1)); }

[ $failures = 0 ] || { echo "$failures case(s) failed"; exit 1; }
