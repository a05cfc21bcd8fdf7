#!/usr/bin/env python3
"""Checks that a CSV answer holds the same rows as the JSON answer of the same call.

  compare_csv.py JSON_FILE CSV_FILE [ROWS_FIELD]

The CSV is read by Python's csv module (RFC 4180 dialect: comma, double quotes, CRLF). The
rows are the JSON's `data` array, or `data[ROWS_FIELD]`. Each row's nested objects are
flattened with dots; the header must name those fields in the order they first appear; each
field must be the JSON value as the JSON printed it: a number with the same digits, null
empty, true/false, a string as itself, an array as JSON text holding the same values.

Exit status 0 when they agree, 1 with one line per difference, 2 on misuse.
"""

import csv
import io
import json
import sys


class Number(str):
    """A JSON number kept as the text the server printed."""


def load_json(text):
    return json.loads(text, parse_float=Number, parse_int=Number)


def flatten(value, prefix, out):
    if isinstance(value, dict) and (value or not prefix):
        for name, item in value.items():
            flatten(item, f"{prefix}.{name}" if prefix else name, out)
    else:
        out[prefix] = value


def field_agrees(text, value):
    if value is None:
        return text == ""
    if value is True or value is False:
        return text == ("true" if value else "false")
    if isinstance(value, str):  # Number is a str too: the same digits
        return text == value
    try:
        return load_json(text) == value  # an array (or an empty object) as JSON text
    except ValueError:
        return False


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        answer = load_json(f.read())
    with open(argv[2], "rb") as f:
        raw = f.read()
    data = answer["data"]
    rows = data[argv[3]] if len(argv) == 4 else data
    problems = []
    if raw and not raw.endswith(b"\r\n"):
        problems.append("the CSV does not end its last record with CRLF")
    records = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    flat = []
    header = []
    for row in rows:
        fields = {}
        flatten(row, "", fields)
        flat.append(fields)
        header.extend(name for name in fields if name not in header)
    if not records:
        problems.append("the CSV is empty: it has no header row")
        records = [[]]
    if records[0] != header:
        problems.append(f"header {records[0]} != fields {header}")
    if len(records) - 1 != len(flat):
        problems.append(f"{len(records) - 1} records != {len(flat)} rows")
    for i, (record, fields) in enumerate(zip(records[1:], flat), start=1):
        if len(record) != len(records[0]):
            problems.append(f"record {i} has {len(record)} fields, the header {len(records[0])}")
            continue
        for name, text in zip(records[0], record):
            if not field_agrees(text, fields.get(name)):
                problems.append(f"record {i}, field {name}: CSV {text!r} != JSON {fields.get(name)!r}")
    for line in problems[:50]:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
