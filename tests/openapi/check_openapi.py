#!/usr/bin/env python3
"""Checks a running lastrod against its own OpenAPI document (GET /openapi.json).

  check_openapi.py probe BASE_URL OUT_DIR
      Validates the document with openapi-spec-validator, calls /health, /pricing,
      /openapi.json, /docs and every /v1 operation it describes (arguments found in earlier
      answers: a path parameter takes values answered under the same name, a required month the
      months answered for the same path arguments), follows one cursor, provokes problems
      (401, 404, 422), asks each operation again with If-None-Match (a 304) and, where it
      offers CSV, with format=csv, and validates every request and answer with openapi-core. Every
      operation must answer 200 with data at least once. The API key is $LASTRO_API_KEY.
      Writes OUT_DIR/openapi.json and OUT_DIR/exchanges.json.
  check_openapi.py validate SPEC EXCHANGES
      Validates recorded exchanges against a document (what `probe` wrote).

Exit status 0 when everything matches, 1 with one line per mismatch otherwise, 2 on misuse.
"""

import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse
from openapi_spec_validator import validate as validate_spec

MAX_CALLS_PER_OPERATION = 80
MAX_CANDIDATES = 30
MONTHS_PER_CALL = 4
OPTIONAL_TRIES = 3
MONTH_PATTERN = r"^[0-9]{4}-(0[1-9]|1[0-2])$"
UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000"


def fail_usage(message):
    print(f"check_openapi.py: {message}", file=sys.stderr)
    sys.exit(2)


def get(base, target, key=None, extra_headers=None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    headers.update(extra_headers or {})
    request = urllib.request.Request(base + target, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            status, response_headers, body = r.status, dict(r.headers.items()), r.read()
    except urllib.error.HTTPError as e:
        status, response_headers, body = e.code, dict(e.headers.items()), e.read()
    return {
        "method": "get",
        "target": target,
        "request_headers": headers,
        "status": status,
        "response_headers": response_headers,
        "body": body.decode("utf-8"),
    }


def operations(spec):
    """(operationId, path template, operation object) of every GET in the document."""
    for path, item in spec["paths"].items():
        if "get" in item:
            yield item["get"]["operationId"], path, item["get"]


def walk(value, found):
    """Every scalar member of a JSON value, by member name."""
    if isinstance(value, dict):
        for name, member in value.items():
            if isinstance(member, (str, int)) and not isinstance(member, bool):
                found.setdefault(name, [])
                if member not in found[name]:
                    found[name].append(member)
            walk(member, found)
    elif isinstance(value, list):
        for item in value:
            walk(item, found)


def has_data(exchange):
    if exchange["status"] != 200:
        return False
    data = json.loads(exchange["body"]).get("data")
    return bool(data) if isinstance(data, list) else data is not None


class Prober:
    def __init__(self, base, key, spec):
        self.base, self.key, self.spec = base, key, spec
        self.exchanges = []
        self.seen = {}  # member name -> values answered
        self.seen_for = {}  # (param, value) -> {member name -> values} answered for that argument
        self.mismatches = []  # what a representation answered unlike the document says

    def call(self, target, key=True, headers=None):
        exchange = get(self.base, target, self.key if key else None, headers)
        self.exchanges.append(exchange)
        json_answer = exchange["response_headers"].get("Content-Type", "").startswith("application/json")
        if exchange["status"] == 200 and exchange["target"].startswith("/v1/") and json_answer:
            body = json.loads(exchange["body"])
            walk(body.get("data"), self.seen)
        return exchange

    def month_pattern_values(self, found):
        values = []
        for name, members in found.items():
            for v in members:
                if isinstance(v, str) and re.fullmatch(MONTH_PATTERN, v) and v not in values:
                    values.append(v)
        return sorted(values, reverse=True)

    def candidates(self, param, path_args):
        schema = param.get("schema", {})
        name = param["name"]
        if schema.get("pattern") == MONTH_PATTERN:
            months = []
            for arg in path_args.items():
                months += [m for m in self.month_pattern_values(self.seen_for.get(arg, {})) if m not in months]
            months += [m for m in self.month_pattern_values(self.seen) if m not in months]
            return months[:MONTHS_PER_CALL]
        if "example" in param:
            return [param["example"]]
        if "default" in schema:
            return [schema["default"]]
        if "enum" in schema:
            return schema["enum"][:1]
        return [str(v) for v in self.seen.get(name, [])][:MAX_CANDIDATES]

    def argument_sets(self, op):
        """Path and query arguments to try: the required ones alone, then with one optional
        parameter more (some operations need one of several)."""
        params = op.get("parameters", [])
        path_sets = [{}]
        for p in (p for p in params if p["in"] == "path"):
            values = self.candidates(p, {})
            path_sets = [dict(s, **{p["name"]: v}) for s in path_sets for v in values]
        required = [p for p in params if p["in"] == "query" and p.get("required")]
        optional = [p for p in params if p["in"] == "query" and not p.get("required") and "default" not in p["schema"]]
        for path_args in path_sets:
            query_sets = [{}]
            for p in required:
                values = self.candidates(p, path_args)
                query_sets = [dict(s, **{p["name"]: v}) for s in query_sets for v in values]
            yield from ((path_args, q) for q in query_sets)
        for p in optional:
            for path_args in path_sets[:OPTIONAL_TRIES]:
                for value in self.candidates(p, path_args)[:OPTIONAL_TRIES]:
                    yield path_args, {p["name"]: value}

    @staticmethod
    def target(path, path_args, query):
        for name, value in path_args.items():
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        return path + ("?" + urllib.parse.urlencode(query) if query else "")

    def try_operation(self, op_id, path, op):
        calls = 0
        for path_args, query in self.argument_sets(op):
            if calls >= MAX_CALLS_PER_OPERATION:
                return False
            calls += 1
            exchange = self.call(self.target(path, path_args, query))
            if exchange["status"] == 200:
                found = {}
                walk(json.loads(exchange["body"]).get("data"), found)
                for arg in path_args.items():
                    for name, values in found.items():
                        self.seen_for.setdefault(arg, {}).setdefault(name, []).extend(values)
            if has_data(exchange):
                cursor = json.loads(exchange["body"])["meta"].get("pagination", {}).get("next_cursor")
                if cursor:
                    self.call(self.target(path, path_args, dict(query, cursor=cursor)))
                self.try_representations(op_id, self.target(path, path_args, query), op, exchange)
                return True
        return False

    def try_representations(self, op_id, target, op, answered):
        """The same call again as a conditional request (304 expected) and, where the document
        offers it, as CSV: both validated against the document like every exchange."""
        etag = answered["response_headers"].get("ETag")
        again = self.call(target, headers={"If-None-Match": etag or '"none"'})
        if again["status"] != 304:
            self.mismatches.append(f"{op_id}: If-None-Match of its ETag {etag} answered {again['status']}, not 304")
        formats = next((p["schema"].get("enum", []) for p in op.get("parameters", []) if p["name"] == "format"), [])
        if "csv" in formats:
            sep = "&" if "?" in target else "?"
            csv = self.call(target + sep + "format=csv")
            if csv["status"] != 200 or not csv["response_headers"].get("Content-Type", "").startswith("text/csv"):
                self.mismatches.append(f"{op_id}: format=csv answered {csv['status']} "
                                       f"{csv['response_headers'].get('Content-Type')}")

    def run(self):
        for target in ("/health", "/pricing", "/openapi.json", "/docs"):
            self.call(target, key=False)
        pending = [(i, p, o) for i, p, o in operations(self.spec) if p.startswith("/v1/")]
        progress = True
        while pending and progress:
            progress = False
            for entry in list(pending):
                if self.try_operation(*entry):
                    pending.remove(entry)
                    progress = True
        self.provoke_problems()
        return self.mismatches + [f"{i} ({p}): no call answered 200 with data" for i, p, _ in pending]

    def provoke_problems(self):
        v1 = [(p, o) for _, p, o in operations(self.spec) if p.startswith("/v1/")]
        simple = next(p for p, o in v1 if "{" not in p)
        self.call(simple, key=False)  # 401
        for path, op in v1:
            params = op.get("parameters", [])
            uuid_path = [p for p in params if p["in"] == "path" and p["schema"].get("format") == "uuid"]
            if uuid_path and not any(p["in"] == "query" and p.get("required") for p in params):
                self.call(self.target(path, {p["name"]: UNKNOWN_UUID for p in uuid_path}, {}))  # 404
                break
        for path, op in v1:
            bounded = [p for p in op.get("parameters", []) if "maximum" in p["schema"]]
            if bounded and "{" not in path:
                self.call(self.target(path, {}, {bounded[0]["name"]: bounded[0]["schema"]["maximum"] + 1}))  # 422
                break


def describe(error):
    """The schema errors behind an openapi-core error (where in the answer, what), else its text."""
    cause = error
    while cause is not None and not getattr(cause, "schema_errors", None):
        cause = cause.__cause__
    if cause is None:
        return f"{type(error).__name__}: {error}"
    return "; ".join(
        "/".join(str(p) for p in e.absolute_path) + ": " + e.message[:300] for e in cause.schema_errors
    )


def validate_exchanges(spec, exchanges):
    # openapi-core reads application/json only; a problem is JSON too (RFC 9457).
    config = Config(
        extra_media_type_deserializers={
            "application/problem+json": json.loads,
            # A CSV answer is text to the document (its rows are checked by tests/wire/compare_csv.py).
            "text/csv": lambda body, **parameters: body.decode("utf-8") if isinstance(body, bytes) else body,
        }
    )
    openapi = OpenAPI.from_dict(spec, config=config)
    server = spec["servers"][0]["url"]
    errors = []
    for e in exchanges:
        split = urllib.parse.urlsplit(e["target"])
        args = dict(urllib.parse.parse_qsl(split.query))
        content_type = e["response_headers"].get("Content-Type", "")
        request = MockRequest(server, e["method"], split.path, args=args, headers=e["request_headers"])
        response = MockResponse(
            e["body"].encode("utf-8"),
            status_code=e["status"],
            headers=e["response_headers"],
            content_type=content_type,
        )
        where = f"GET {e['target']} -> {e['status']}"
        try:
            if 200 <= e["status"] < 300:
                openapi.validate_request(request)
            openapi.validate_response(request, response)
        except Exception as error:  # every kind of mismatch openapi-core reports
            errors.append(f"{where}: {describe(error)}"[:2000])
    return errors


def main(argv):
    if len(argv) == 4 and argv[1] == "probe":
        base, out = argv[2].rstrip("/"), argv[3]
        key = os.environ.get("LASTRO_API_KEY") or fail_usage("LASTRO_API_KEY is not set")
        exchange = get(base, "/openapi.json")
        if exchange["status"] != 200:
            print(f"GET /openapi.json answered {exchange['status']}: {exchange['body'][:500]}")
            return 1
        spec = json.loads(exchange["body"])
        with open(os.path.join(out, "openapi.json"), "w") as f:
            json.dump(spec, f, indent=1)
        try:
            validate_spec(spec)
        except Exception as error:
            print(f"openapi.json is not a valid OpenAPI document: {error}")
            return 1
        prober = Prober(base, key, spec)
        errors = prober.run()
        with open(os.path.join(out, "exchanges.json"), "w") as f:
            json.dump(prober.exchanges, f, indent=1)
        errors += validate_exchanges(spec, prober.exchanges)
        print(f"{len(prober.exchanges)} exchanges, {len(errors)} mismatches")
    elif len(argv) == 4 and argv[1] == "validate":
        with open(argv[2]) as f:
            spec = json.load(f)
        with open(argv[3]) as f:
            errors = validate_exchanges(spec, json.load(f))
    else:
        fail_usage("usage: check_openapi.py probe BASE_URL OUT_DIR | validate SPEC EXCHANGES")
    for line in errors:
        print(line)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
