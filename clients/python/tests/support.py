"""What the tests share: the live server's client, the OpenAPI document, a runtime check of an
answer against the generated annotations, and arguments found in the demo data's answers."""

import functools
import itertools
import json
import os
import types
import typing
import unittest
from typing import Any, Literal, Union

import lastro

BASE_URL = os.environ.get("LASTRO_BASE_URL", "")
API_KEY = os.environ.get("LASTRO_API_KEY", "")
OPENAPI = os.environ.get("LASTRO_OPENAPI", "")

# Bounds the search for arguments that answer data (a class with a portfolio...).
MAX_TRIES = 60


def client() -> lastro.Client:
    return lastro.Client(BASE_URL, API_KEY, timeout=30)


@functools.cache
def spec() -> dict[str, Any]:
    with open(OPENAPI, encoding="utf-8") as f:
        return json.load(f)


def operation(operation_id: str) -> dict[str, Any]:
    for item in spec()["paths"].values():
        op = item.get("get")
        if op and op["operationId"] == operation_id:
            return op
    raise KeyError(operation_id)


def example(operation_id: str, parameter: str) -> Any:
    """The document's example value of a parameter (the demo data has it)."""
    return next(p["example"] for p in operation(operation_id)["parameters"] if p["name"] == parameter)


def method_name(operation_id: str) -> str:
    return operation_id.replace(".", "_")


# ---- an answer against its annotation ----


def mismatches(value: Any, annotation: Any, where: str = "") -> list[str]:
    """Where VALUE does not fit ANNOTATION (a generated TypedDict, list[...], X | None...)."""
    where = where or "answer"
    if annotation is Any:
        return []
    if annotation is None or annotation is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    origin = typing.get_origin(annotation)
    if origin is Literal:
        allowed = typing.get_args(annotation)
        return [] if value in allowed else [f"{where}: {value!r} not in {allowed}"]
    if origin in (Union, types.UnionType):
        tried = [mismatches(value, option, where) for option in typing.get_args(annotation)]
        return [] if any(not t for t in tried) else [f"{where}: {value!r} fits none of {annotation}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        (item,) = typing.get_args(annotation)
        return [m for i, v in enumerate(value) for m in mismatches(v, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not an object"]
        _, item = typing.get_args(annotation)
        return [m for k, v in value.items() for m in mismatches(v, item, f"{where}.{k}")]
    if typing.is_typeddict(annotation):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not an object ({annotation.__name__})"]
        hints = typing.get_type_hints(annotation)
        missing = sorted(annotation.__required_keys__ - value.keys())
        found = [f"{where}: no {key!r} ({annotation.__name__})" for key in missing]
        for key, hint in hints.items():
            if key in value:
                found += mismatches(value[key], hint, f"{where}.{key}")
        return found
    if annotation is float:  # a JSON number may read as an int (1000000, not 1e6)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif annotation is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, annotation)
    return [] if ok else [f"{where}: {value!r} is not {annotation.__name__}"]


class LiveTestCase(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls) -> None:
        if not (BASE_URL and API_KEY and OPENAPI):
            raise unittest.SkipTest("set LASTRO_BASE_URL, LASTRO_API_KEY and LASTRO_OPENAPI (clients/python/test.sh)")
        cls.client = client()

    def assertFits(self, value: Any, annotation: Any, where: str = "") -> None:
        found = mismatches(value, annotation, where)
        self.assertFalse(found, "\n".join(found[:20]))

    def assertTyped(self, operation_id: str, answer: Any) -> None:
        """ANSWER (from the operation's method) has data, and data and meta fit the method's
        return annotation, member by member."""
        returns = typing.get_type_hints(getattr(lastro.Client, method_name(operation_id)))["return"]
        origin = typing.get_origin(returns)
        if origin is None and typing.is_typeddict(returns):  # an answer without envelope
            self.assertTrue(answer, f"{operation_id} answered nothing")
            self.assertFits(answer, returns, operation_id)
            return
        self.assertIsInstance(answer, origin)
        data, meta = typing.get_args(returns)
        if origin is lastro.Page:
            data = list[data]
        self.assertTrue(answer.data, f"{operation_id} answered no data")
        self.assertEqual(answer.status, 200)
        self.assertFits(answer.data, data, f"{operation_id} data")
        self.assertFits(answer.meta, meta, f"{operation_id} meta")
        self.assertEqual(answer.meta["request_id"], answer.request_id)
        self.assertIsInstance(answer.credits.charged, int)


# ---- arguments found in the demo data, as a user would find them ----


@functools.cache
def funds() -> list[lastro.FundsSearchRow]:
    return list(client().funds_search(limit=100).iter_items())


@functools.cache
def class_ids() -> list[str]:
    return [c["class_id"] for fund in funds() for c in fund["classes"]]


def find(
    candidates: typing.Iterable[Any],
    call: typing.Callable[[Any], Any],
    accept: typing.Callable[[Any], bool] = lambda answer: bool(answer.data),
) -> tuple[Any, Any]:
    """The first of CANDIDATES whose CALL answers data (or what ACCEPT takes), and that answer
    (a 404, an entity without that report, moves on to the next)."""
    for candidate in itertools.islice(candidates, MAX_TRIES):
        try:
            answer = call(candidate)
        except lastro.LastroError as error:
            if error.status != 404:
                raise
            continue
        if accept(answer):
            return candidate, answer
    raise AssertionError(f"none of the first {MAX_TRIES} candidates answered data")


@functools.cache
def class_with_reports() -> tuple[str, list[str]]:
    """A class that files monthly reports, and its months, the latest first."""
    class_id, quotas = find(class_ids(), lambda c: client().funds_class_quotas(c))
    return class_id, sorted({row["month"] for row in quotas.data}, reverse=True)
