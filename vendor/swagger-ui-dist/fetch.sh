#!/usr/bin/env bash
# Refreshes the vendored Swagger UI (the viewer of GET /docs) from the npm registry with npm's
# own client: the pinned version, checked against its published integrity, unpacked here.
# To upgrade, change both pins (`npm view swagger-ui-dist@X dist.integrity`) and run it.
set -euo pipefail

version=5.35.0
integrity=sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4YmXkn/h0wCDNsXdGarTNNHC3sU8yVUQ==
files=(swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt swagger-ui.css LICENSE NOTICE)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "swagger-ui-dist@$version" >/dev/null)
tarball="$work/swagger-ui-dist-$version.tgz"
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [[ $actual != "$integrity" ]]; then
    echo "fetch.sh: swagger-ui-dist $version has integrity $actual, expected $integrity" >&2
    exit 1
fi
tar -xzf "$tarball" -C "$work"
for f in "${files[@]}"; do
    cp "$work/package/$f" "$here/$f"
done
echo "$version" >"$here/VERSION"
echo "fetch.sh: swagger-ui-dist $version unpacked into $here"
