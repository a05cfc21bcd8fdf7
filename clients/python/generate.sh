#!/usr/bin/env bash
# clients/python/generate.sh SPEC_FILE: rewrites lastro/_generated.py (the answers' TypedDicts and
# one method per operation) from an OpenAPI document, such as the one lastrod serves at
# /openapi.json. Deterministic: the same document gives the same bytes. ./dev clients calls it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "usage: clients/python/generate.sh SPEC_FILE (an OpenAPI JSON document)" >&2
    exit 2
fi
exec python3 "$here/generate.py" "$1" "$here/lastro/_generated.py"
