#!/usr/bin/env bash
# generate.sh SPEC_FILE [OUTPUT]
# Writes the TypeScript types of the OpenAPI document SPEC_FILE (the server's /openapi.json)
# to src/schema.ts, or to OUTPUT (test.sh generates into a temporary file to compare).
# Deterministic: the same document and the pinned openapi-typescript give the same bytes.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=clients/typescript/scripts/dependencies.sh
. "$here/scripts/dependencies.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || {
    echo "usage: clients/typescript/generate.sh SPEC_FILE [OUTPUT]" >&2
    exit 2
}
spec=$(realpath "$1")
output=$(realpath -m "${2:-$here/src/schema.ts}")
[ -r "$spec" ] || {
    echo "clients/typescript/generate.sh: cannot read $1" >&2
    exit 2
}

install_dependencies "$here"
# --empty-objects-unknown: an object the document leaves open (no properties listed) is typed
# Record<string, unknown>, whose members can be read, not Record<string, never>.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! (cd "$here" && node_modules/.bin/openapi-typescript "$spec" --empty-objects-unknown -o "$output") >"$log" 2>&1; then
    cat "$log" >&2
    echo "clients/typescript/generate.sh: openapi-typescript failed on $1" >&2
    exit 1
fi
