#!/usr/bin/env python3
"""The type check test.sh runs (Debian's build root has no static checker): every module
compiles, and every annotation of the package resolves (each TypedDict's members, each method's
parameters and return), so a generated type names only types that exist.

    check_types.py PACKAGE_DIR...    prints one line per problem; exit 1 if any
"""

import inspect
import os
import sys
import typing


def main(roots):
    problems = []
    for root in roots:
        for folder, _, files in os.walk(root):
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    try:
                        compile(f.read(), path, "exec")
                    except SyntaxError as error:
                        problems.append(f"{path}:{error.lineno}: {error.msg}")
    if problems:
        return problems
    import lastro

    checked = 0
    for name in lastro.__all__:
        thing = getattr(lastro, name)
        if not (inspect.isclass(thing) or inspect.isfunction(thing)):
            continue  # API_VERSION, OPERATIONS, the Literal aliases of the parameters
        targets = [thing]
        if inspect.isclass(thing) and not typing.is_typeddict(thing):
            targets = [f for _, f in inspect.getmembers(thing, inspect.isfunction)]
        for target in targets:
            try:
                hints = typing.get_type_hints(target)
            except Exception as error:  # a name that does not resolve, a malformed annotation
                problems.append(f"lastro.{name}: {getattr(target, '__qualname__', target)}: {error}")
                continue
            checked += len(hints)
    for op in lastro.OPERATIONS:
        returns = typing.get_type_hints(getattr(lastro.Client, op.replace(".", "_"))).get("return")
        if returns is None:
            problems.append(f"lastro.Client.{op.replace('.', '_')}: no return annotation")
    print(f"check_types: {checked} annotations resolved", file=sys.stderr)
    return problems


if __name__ == "__main__":
    found = main(sys.argv[1:] or ["lastro"])
    for line in found:
        print(line)
    sys.exit(1 if found else 0)
