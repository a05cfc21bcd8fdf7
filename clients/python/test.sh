#!/usr/bin/env bash
# clients/python/test.sh: the Python client against a live lastrod serving the demo data.
#   env LASTRO_BASE_URL (http://127.0.0.1:PORT), LASTRO_API_KEY, LASTRO_OPENAPI (a file holding
#   that server's /openapi.json).
# 1. the checked-in lastro/_generated.py is what generate.py makes from LASTRO_OPENAPI;
# 2. type check: every module compiles and every annotation resolves (tests/check_types.py);
# 3. the tests (tests/test_*.py, unittest): every operation called once with its answer checked
#    against the generated types, cursor and offset pages to the end, problems as LastroError,
#    the billing headers, the example. Closes with `N passed, N failed`; exit 0 only if all passed.
# Standard library only: nothing to install, nothing fetched.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for name in LASTRO_BASE_URL LASTRO_API_KEY LASTRO_OPENAPI; do
    [ -n "${!name:-}" ] || {
        echo "clients/python/test.sh: $name is not set" >&2
        exit 2
    }
done
[ -f "$LASTRO_OPENAPI" ] || {
    echo "clients/python/test.sh: LASTRO_OPENAPI=$LASTRO_OPENAPI is no file" >&2
    exit 2
}
# The tests run from tests/: a relative path given by the caller is made absolute.
LASTRO_OPENAPI=$(realpath "$LASTRO_OPENAPI")
export LASTRO_OPENAPI
# No __pycache__ in the source tree (the package build copies it).
export PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$here:$here/tests"

fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
python3 "$here/generate.py" "$LASTRO_OPENAPI" "$fresh/_generated.py"
if ! cmp -s "$fresh/_generated.py" "$here/lastro/_generated.py"; then
    echo "clients/python/lastro/_generated.py is stale: it differs from what the server's OpenAPI document generates; run ./dev clients"
    exit 1
fi

(cd "$here" && python3 tests/check_types.py lastro tests generate.py example.py)

cd "$here/tests" && exec python3 run.py
