#!/usr/bin/env bash
# test.sh: checks the client against a live lastrod.
#   LASTRO_BASE_URL  where it listens (http://127.0.0.1:PORT)
#   LASTRO_API_KEY   a key with credits
#   LASTRO_OPENAPI   a file holding its /openapi.json
# 1. src/schema.ts must be what generate.sh makes from LASTRO_OPENAPI (else: run ./dev clients);
# 2. tsc type-checks the client and its tests; 3. node's test runner calls every operation.
# Closes with "N passed, N failed"; exits 0 only when everything passed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=clients/typescript/scripts/dependencies.sh
. "$here/scripts/dependencies.sh"

for name in LASTRO_BASE_URL LASTRO_API_KEY LASTRO_OPENAPI; do
    [ -n "${!name:-}" ] || {
        echo "clients/typescript/test.sh: $name is not set" >&2
        exit 2
    }
done
[ -r "$LASTRO_OPENAPI" ] || {
    echo "clients/typescript/test.sh: cannot read LASTRO_OPENAPI=$LASTRO_OPENAPI" >&2
    exit 2
}
LASTRO_OPENAPI=$(realpath "$LASTRO_OPENAPI")
export LASTRO_OPENAPI

install_dependencies "$here"

# Everything this run writes goes to a folder of its own under .work/ (inside the client, so
# that node finds node_modules from the compiled files): runs side by side do not collide.
mkdir -p "$here/.work"
work=$(mktemp -d "$here/.work/test.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$here/generate.sh" "$LASTRO_OPENAPI" "$work/schema.ts"
if ! cmp -s "$work/schema.ts" "$here/src/schema.ts"; then
    echo "clients/typescript: src/schema.ts is stale against the server's /openapi.json; run ./dev clients to regenerate it" >&2
    exit 1
fi

cd "$here"
if ! node_modules/.bin/tsc -p . --outDir "$work/dist"; then
    echo "clients/typescript: tsc found type errors (above)" >&2
    exit 1
fi

# The spec reporter for people, TAP into a file for the closing count.
status=0
node --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$work/results.tap" \
    "$work"/dist/test/*.test.js || status=$?
passed=$(sed -n 's/^# pass //p' "$work/results.tap")
failed=$(sed -n 's/^# fail //p' "$work/results.tap")
echo "${passed:-0} passed, ${failed:-0} failed"
if [ "$status" -ne 0 ] && [ "${failed:-0}" = 0 ]; then
    echo "clients/typescript: node --test exited with $status" >&2
fi
exit "$status"
