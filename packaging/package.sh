#!/usr/bin/env bash
# ./dev package [--check-reproducible]: the .deb packages of Lastro (docs/packaging.md), built
# with debhelper (dpkg-buildpackage -b) inside the trixie environment into build/package/out/.
#
# The source tree is staged in build/package/lastro-<version>/ with packaging/debian/ as its
# debian/ and a changelog written here: the version is CMakeLists.txt's project VERSION (plus
# LASTRO_PACKAGE_VERSION_SUFFIX, e.g. "+b1" for a rebuild that upgrades an installed one), the
# date SOURCE_DATE_EPOCH. The stage keeps its build directory between runs (a rebuild compiles
# what changed); --check-reproducible builds twice from nothing and compares the packages' bytes.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf 'package: %s\n' "$*" >&2; }
die() {
    printf 'package: %s\n' "$*" >&2
    exit 1
}

version=$(sed -n 's/^project(lastro VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
[ -n "$version" ] || die "no 'project(lastro VERSION x.y.z' line in CMakeLists.txt"
suffix=${LASTRO_PACKAGE_VERSION_SUFFIX:-}
case "$suffix" in '' | +[a-z0-9]*) ;; *) die "LASTRO_PACKAGE_VERSION_SUFFIX=$suffix: expected '+' then letters and digits, e.g. +b1" ;; esac
deb_version=$version$suffix

# SOURCE_DATE_EPOCH: the caller's, else the last commit's (./dev passes it in as
# LASTRO_SOURCE_DATE_EPOCH: git does not run inside the build root), else a fixed date.
kFixedEpoch=1735689600 # 2025-01-01T00:00:00Z
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=${LASTRO_SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo $kFixedEpoch)}
fi
export SOURCE_DATE_EPOCH

work="$repo/build/package"
stage="$work/lastro-$version"
out="$work/out"

source_tar() { tar -C "$repo" --exclude=./build --exclude=./var --exclude=./.git --exclude=./.cache -cf - .; }

# stage: a copy of the sources (mtimes kept, so that the kept build directory rebuilds only
# what changed), debian/ and its changelog. Everything but the build directory is new.
stage() {
    mkdir -p "$stage"
    find "$stage" -mindepth 1 -maxdepth 1 ! -name 'obj-*' -exec rm -rf {} +
    if [ -n "${snapshot:-}" ]; then
        tar -C "$stage" -xf "$snapshot"
    else
        source_tar | tar -C "$stage" -xf -
    fi
    cp -a "$stage/packaging/debian" "$stage/debian"
    {
        printf 'lastro (%s) unstable; urgency=medium\n\n' "$deb_version"
        printf '  * Built from the Lastro source tree, project version %s.\n\n' "$version"
        printf ' -- Lastro maintainers <maintainers@lastro.invalid>  %s\n' \
            "$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
    } >"$stage/debian/changelog"
}

build() {
    stage
    rm -f "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes
    say "lastro $deb_version (SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH) in $stage"
    (cd "$stage" && dpkg-buildpackage -b --no-sign --no-pre-clean -j"$(nproc)") >"$work/build.log" 2>&1 ||
        {
            tail -n 40 "$work/build.log" >&2
            die "dpkg-buildpackage failed (full log: $work/build.log)"
        }
    rm -rf "$out"
    mkdir -p "$out"
    mv "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$out/"
    lintian_check
    (cd "$out" && sha256sum ./*.deb)
}

# lintian over the packages; the overrides are in packaging/debian/*.lintian-overrides, each
# with its reason. Any other tag of severity warning or error fails the build.
lintian_check() {
    local report="$work/lintian.txt"
    # As root in the build root, which lintian only remarks upon.
    lintian --fail-on error,warning --info --display-info "$out"/*.changes >"$report" 2>&1 || {
        cat "$report" >&2
        die "lintian found problems (above; also in $report)"
    }
    grep -v -e '^N:' -e 'running with root privileges' "$report" | grep . >&2 || say "lintian: clean"
}

case "${1:-}" in
'') build ;;
--check-reproducible)
    # Both builds from one snapshot of the tree, taken now: edits made meanwhile change neither.
    mkdir -p "$work"
    snapshot="$work/source.tar"
    source_tar >"$snapshot"
    rm -rf "$stage"
    build >"$work/first.sha256"
    rm -rf "$stage"
    build >"$work/second.sha256"
    if diff -u "$work/first.sha256" "$work/second.sha256"; then
        cat "$work/second.sha256"
        rm -f "$snapshot"
        say "reproducible: two builds from nothing gave the same bytes"
    else
        die "not reproducible: the two builds differ (above)"
    fi
    ;;
*) die "usage: ./dev package [--check-reproducible]" ;;
esac
