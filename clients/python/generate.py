#!/usr/bin/env python3
"""Writes the typed part of Lastro's Python client from the server's OpenAPI document.

    generate.py SPEC_FILE OUT_FILE      (clients/python/generate.sh passes lastro/_generated.py)

OUT_FILE gets, for every operation whose 200 answer is JSON:
  - a TypedDict per object schema of its answer: the rows or object of `data`, their nested
    objects and `meta`, as `<Operation>Row` / `<Operation>Data` / `<Operation>Meta` and nested
    names built from the member names; `NotRequired[...]` where the schema does not require a
    member, `... | None` where it admits null, `Literal[...]` for an enum;
  - one method on `Operations`: its name from the operationId (`funds.search` -> funds_search),
    path parameters positional, query parameters keyword-only with their types, the summary and
    the parameters' descriptions as its docstring. The method hands the call to `_call`, which
    the hand-written `lastro.client.Client` implements.

Standard library only, and deterministic: the same document gives the same bytes (operations
sorted by operationId, members in the document's order, nothing taken from the server that
served it: no URL, no server version).
"""

import json
import keyword
import re
import sys
import textwrap

WIDTH = 100

# The typed methods decode JSON; an answer in another format (CSV) is asked for with
# Client.request, so a `format` parameter is left out of their signatures.
LEFT_OUT_PARAMETERS = {"format"}

SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


def camel(text):
    """funds.class_portfolio_assets -> FundsClassPortfolioAssets"""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", text) if part)


def identifier(text):
    """A Python name for an API name: `from` -> from_, `class` -> class_, `a-b` -> a_b."""
    name = re.sub(r"[^0-9A-Za-z_]", "_", text)
    if not name or name[0].isdigit():
        name = "_" + name
    return name + "_" if keyword.iskeyword(name) else name


def literal(value):
    """A JSON value as Python source: "text" (UTF-8 kept), 1, 2.5, True, None."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value)


def one_line(text):
    return " ".join(str(text).split())


def docstring(lines, indent):
    """A triple-quoted docstring of LINES (already wrapped), indented."""
    body = "\n".join(lines).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    pad = " " * indent
    if "\n" not in body:
        return f'{pad}"""{body}"""\n'
    return pad + '"""' + body.replace("\n", "\n" + pad).replace(pad + "\n", "\n") + "\n" + pad + '"""\n'


def wrap(text, indent, first="", rest=None):
    return textwrap.wrap(
        one_line(text),
        width=WIDTH - indent,
        initial_indent=first,
        subsequent_indent=first if rest is None else rest,
        break_on_hyphens=False,
    ) or [first.rstrip()]


class Generator:
    def __init__(self, spec):
        self.spec = spec
        self.typed_dicts = []  # rendered classes, each after the ones it uses
        self.names = set()
        self.aliases = []  # Literal aliases of the parameters' enums
        self.exported = []

    # ---- answers: JSON Schema -> annotations and TypedDicts ----

    def resolve(self, ref):
        if not ref.startswith("#/"):
            sys.exit(f"generate.py: only local references are supported, got {ref}")
        node = self.spec
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def annotation(self, schema, name):
        """The annotation of a value of SCHEMA; an object with members becomes TypedDict NAME."""
        if "$ref" in schema:
            target = schema["$ref"].rsplit("/", 1)[1]
            name = camel(target)
            if name not in self.names:
                self.typed_dict(self.resolve(schema["$ref"]), name)
            return name
        types = schema.get("type")
        types = [types] if isinstance(types, str) else list(types or [])
        nullable = "null" in types
        kinds = [t for t in types if t != "null"]
        if "enum" in schema:
            values = [v for v in schema["enum"] if v is not None]
            nullable = nullable or None in schema["enum"]
            parts = ["Literal[" + ", ".join(literal(v) for v in values) + "]"]
        elif not kinds:
            parts = ["Any"]
        else:
            parts = [self.kind(kind, schema, name) for kind in kinds]
        if nullable:
            parts.append("None")
        return " | ".join(parts)

    def kind(self, kind, schema, name):
        if kind in SCALARS:
            return SCALARS[kind]
        if kind == "array":
            items = schema.get("items")
            return f"list[{self.annotation(items, name + 'Item')}]" if items else "list[Any]"
        if kind == "object":
            members = schema.get("properties") or {}
            # A map whose every member is a constant text (meta.field_sources: field -> its
            # source) says nothing a TypedDict of 50 constants would add.
            if members and all("const" in m for m in members.values()):
                return "dict[str, str]"
            if members:
                return self.typed_dict(schema, name)
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict):
                return f"dict[str, {self.annotation(extra, name + 'Value')}]"
            return "dict[str, Any]"
        sys.exit(f"generate.py: unknown JSON Schema type {kind!r} for {name}")

    def typed_dict(self, schema, name, summary=None):
        if name in self.names:
            sys.exit(f"generate.py: two schemas would be named {name}")
        self.names.add(name)
        required = set(schema.get("required", []))
        fields = []
        for member, sub in schema["properties"].items():
            annotation = self.annotation(sub, name + camel(member))
            if member not in required:
                annotation = f"NotRequired[{annotation}]"
            notes = [one_line(sub[k]) for k in ("description",) if sub.get(k)]
            if sub.get("x-unit"):
                notes.append(f"unit: {sub['x-unit']}")
            fields.append((member, annotation, "; ".join(notes)))
        self.typed_dicts.append(self.render_typed_dict(name, fields, summary or schema.get("description")))
        self.exported.append(name)
        return name

    @staticmethod
    def render_typed_dict(name, fields, summary):
        # A member that is no Python name (`class`) needs the functional form.
        functional = any(not m.isidentifier() or keyword.iskeyword(m) for m, _, _ in fields)
        out = []
        if functional:
            out.append(f"{name} = TypedDict(\n    {literal(name)},\n    {{\n")
            for member, annotation, note in fields:
                out += [line + "\n" for line in wrap(note, 8, "        # ")] if note else []
                out.append(f"        {literal(member)}: {annotation},\n")
            out.append("    },\n)\n")
            if summary:
                out.append(f"{name}.__doc__ = {literal(one_line(summary))}\n")
            return "".join(out)
        out.append(f"class {name}(TypedDict):\n")
        if summary:
            out.append(docstring(wrap(summary, 7), 4))
        for member, annotation, note in fields:
            out += [line + "\n" for line in wrap(note, 4, "    #: ")] if note else []
            out.append(f"    {member}: {annotation}\n")
        return "".join(out)

    # ---- operations ----

    def operations(self):
        """(operationId, path, operation) of every GET, sorted by operationId."""
        found = []
        for path, item in self.spec["paths"].items():
            op = item.get("get")
            if op is not None:
                found.append((op["operationId"], path, op))
        return sorted(found)

    def parameter_annotation(self, schema, name):
        """A parameter's annotation; an enum becomes the Literal alias NAME, usable by callers."""
        if "enum" in schema:
            values = [literal(v) for v in schema["enum"]]
            alias = f"{name} = Literal[" + ", ".join(values) + "]\n"
            if len(alias) > WIDTH:
                alias = f"{name} = Literal[\n" + "".join(f"    {v},\n" for v in values) + "]\n"
            if name in self.names:
                sys.exit(f"generate.py: two types would be named {name}")
            self.names.add(name)
            self.aliases.append(alias)
            self.exported.append(name)
            return name
        kind = schema.get("type")
        if kind == "string" and schema.get("format") == "date":
            return "str | date"
        return SCALARS.get(kind, "str") if isinstance(kind, str) else "str"

    def method(self, op_id, path, op):
        """The rendered method of one operation, or None (with the reason) if it is left out."""
        answer = op.get("responses", {}).get("200", {}).get("content", {}).get("application/json")
        if answer is None:
            return None, f"{op_id} (GET {path}) answers no JSON"
        prefix = camel(op_id)
        schema = answer["schema"]
        members = schema.get("properties", {})
        pagination = op.get("x-pagination", "none")
        if "data" in members and "meta" in members:
            data = members["data"]
            row = data.get("items") if data.get("type") == "array" else None
            meta = self.annotation(members["meta"], prefix + "Meta")
            if row is not None and pagination in ("cursor", "offset"):
                kind, returns = pagination, f"Page[{self.annotation(row, prefix + 'Row')}, {meta}]"
            else:
                name = prefix + ("Row" if row is not None else "Data")
                data_annotation = f"list[{self.annotation(row, name)}]" if row else self.annotation(data, name)
                kind, returns = "envelope", f"Response[{data_annotation}, {meta}]"
        else:
            kind, returns = "body", self.annotation(schema, prefix + "Body")

        params = [p for p in op.get("parameters", []) if p["name"] not in LEFT_OUT_PARAMETERS]
        path_params = sorted((p for p in params if p["in"] == "path"), key=lambda p: path.index("{" + p["name"] + "}"))
        query = [p for p in params if p["in"] == "query"]
        query = [p for p in query if p.get("required")] + [p for p in query if not p.get("required")]
        names = [identifier(p["name"]) for p in path_params + query]
        if len(set(names)) != len(names) or "self" in names:
            sys.exit(f"generate.py: {op_id}: parameter names collide in Python: {names}")

        name = identifier(re.sub(r"[^0-9A-Za-z]+", "_", op_id).lower())
        signature = ["self"]
        annotations = {p["name"]: self.parameter_annotation(p["schema"], prefix + camel(p["name"])) for p in params}
        signature += [f"{identifier(p['name'])}: {annotations[p['name']]}" for p in path_params]
        if query:
            signature.append("*")
        for p in query:
            annotation = annotations[p["name"]]
            if p.get("required"):
                signature.append(f"{identifier(p['name'])}: {annotation}")
            else:
                signature.append(f"{identifier(p['name'])}: {annotation} | None = None")

        summary = one_line(op.get("summary", op_id))
        summary += "" if summary.endswith((".", "!", "?", ")")) else "."
        lines = wrap(summary, 11) + [""]  # 11: the indent and the opening quotes
        price = op.get("x-price")
        facts = [f"GET {path}"]
        if price is not None:
            unit = op.get("x-price-unit", "credits")
            facts.append("free" if not price else f"{price} {unit[:-1] if price == 1 and unit.endswith('s') else unit}")
        facts.append({"cursor": "cursor pages", "offset": "offset pages"}.get(pagination, "one answer"))
        lines += wrap(", ".join(facts) + ".", 8)
        if path_params or query:
            lines += ["", "Args:"]
        for p in path_params + query:
            text = p.get("description", "")
            default = p["schema"].get("default")
            if default is not None:
                text += f" (server default: {literal(default)})"
            lines += wrap(text, 8, f"    {identifier(p['name'])}: ", "        ")

        out = [f"    def {name}(\n"]
        out += [f"        {part},\n" for part in signature]
        out.append(f"    ) -> {returns}:\n")
        out.append(docstring(lines, 8))
        path_args = "{" + ", ".join(f"{literal(p['name'])}: {identifier(p['name'])}" for p in path_params) + "}"
        query_args = "{" + ", ".join(f"{literal(p['name'])}: {identifier(p['name'])}" for p in query) + "}"
        arguments = [literal(op_id), literal(path), path_args, query_args, literal(kind)]
        call = "        return self._call(" + ", ".join(arguments) + ")"
        if len(call) <= WIDTH:
            out.append(call + "\n")
        else:  # one argument a line, and the query's members too when they do not fit on one
            out.append("        return self._call(\n")
            out += [f"            {argument},\n" for argument in arguments[:3]]
            if len(query_args) + 13 <= WIDTH:
                out.append(f"            {query_args},\n")
            else:
                out.append("            {\n")
                out += [f"                {literal(p['name'])}: {identifier(p['name'])},\n" for p in query]
                out.append("            },\n")
            out.append(f"            {literal(kind)},\n        )\n")
        return "".join(out), None

    def render(self):
        methods, left_out, operation_ids = [], [], []
        for op_id, path, op in self.operations():
            text, reason = self.method(op_id, path, op)
            if text is None:
                left_out.append(reason)
            else:
                methods.append(text)
                operation_ids.append(op_id)
        info = self.spec.get("info", {})
        out = [
            f"# Generated by clients/python/generate.py from the OpenAPI document of {info.get('title', 'the API')} "
            f"{info.get('version', '')}.\n",
            "# Do not edit: run ./dev clients (or clients/python/generate.sh SPEC_FILE).\n",
            '"""The API\'s answers as TypedDicts and its operations as methods (generated)."""\n\n',
            "from datetime import date\n",
            "from typing import Any, Literal, NotRequired, TypedDict\n\n",
            "from .response import Page, Response\n\n",
            f"API_VERSION = {literal(info.get('version', ''))}\n",
            "# Every operation a method calls, by operationId.\n",
            "OPERATIONS = (\n" + "".join(f"    {literal(i)},\n" for i in operation_ids) + ")\n",
        ]
        if left_out:
            out.append("# Not generated: " + "; ".join(left_out) + ".\n")
        if self.aliases:
            out.append("\n# The values a parameter admits.\n" + "".join(self.aliases))
        for typed in self.typed_dicts:
            out.append("\n\n" + typed)
        out.append("\n\nclass Operations:\n")
        out.append(docstring(["Every operation of the API, one method each; lastro.Client sends the calls."], 4))
        out.append(
            "\n    def _call(\n"
            "        self, operation: str, path: str, path_args: dict[str, Any], query: dict[str, Any], answer: str\n"
            "    ) -> Any:\n"
            "        # answer: 'body' (the JSON as is), 'envelope' (a Response), 'cursor' or 'offset' (a Page)\n"
            "        raise NotImplementedError\n"
        )
        for text in methods:
            out.append("\n" + text)
        exported = ["API_VERSION", "OPERATIONS", "Operations"] + sorted(self.exported)
        out.append("\n\n__all__ = [\n" + "".join(f"    {literal(n)},\n" for n in exported) + "]\n")
        return "".join(out)


def main(argv):
    if len(argv) != 3:
        print("usage: generate.py SPEC_FILE OUT_FILE", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    text = Generator(spec).render()
    with open(argv[2], "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
