"""What a call answers: Response (and Page, for paginated operations), or a LastroError."""

import gzip
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

D = TypeVar("D")  # the answer's `data`
M = TypeVar("M")  # the answer's `meta`
R = TypeVar("R")  # one row of a paginated answer's `data`


def _int_header(headers: Mapping[str, str], name: str) -> int | None:
    value = headers.get(name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Credits:
    """The X-Credits-* headers: what the call cost and what the key has left this month."""

    cost: int | None  # the call's price
    charged: int | None  # what was charged after settlement (a refused call is refunded)
    remaining: int | None  # the allowance left this month
    limit: int | None  # the key's monthly allowance
    reset: int | None  # Unix time when the allowance resets

    @classmethod
    def from_headers(cls, headers: Mapping[str, str]) -> "Credits":
        names = ("Cost", "Charged", "Remaining", "Limit", "Reset")
        return cls(*(_int_header(headers, f"X-Credits-{n}") for n in names))


@dataclass(frozen=True)
class RateLimit:
    """The X-RateLimit-* headers: the key's calls per minute and what is left of this one."""

    limit: int | None
    remaining: int | None
    reset: int | None  # Unix time when the current minute window ends

    @classmethod
    def from_headers(cls, headers: Mapping[str, str]) -> "RateLimit":
        return cls(*(_int_header(headers, f"X-RateLimit-{n}") for n in ("Limit", "Remaining", "Reset")))


class RawResponse:
    """An answer as received: status, headers (case-insensitive) and the body's bytes."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes):
        self.status = status
        self.headers = headers
        # The client asks for gzip; an answer may come compressed.
        self.body = gzip.decompress(body) if headers.get("Content-Encoding", "").lower() == "gzip" else body

    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def request_id(self) -> str | None:
        return self.headers.get("X-Request-Id")

    @property
    def credits(self) -> Credits:
        return Credits.from_headers(self.headers)

    @property
    def rate_limit(self) -> RateLimit:
        return RateLimit.from_headers(self.headers)

    def __repr__(self) -> str:
        return f"<RawResponse {self.status} {len(self.body)} bytes>"


class LastroError(Exception):
    """A problem answer (application/problem+json, RFC 9457): the status and why.

    Carries the billing headers too: a refused call may have been charged or refunded
    (credits.charged), and a 429 says when to retry (retry_after, seconds).
    """

    def __init__(self, raw: RawResponse):
        problem: dict[str, Any] = {}
        try:
            parsed = raw.json()
            if isinstance(parsed, dict):
                problem = parsed
        except ValueError:
            pass  # not JSON (a proxy's page...): the status and the text say what there is
        self.status: int = problem.get("status", raw.status)
        self.title: str = problem.get("title", "")
        self.detail: str = problem.get("detail", "" if problem else raw.body[:500].decode("utf-8", "replace"))
        self.type: str | None = problem.get("type")
        self.instance: str | None = problem.get("instance")
        self.request_id: str | None = problem.get("request_id", raw.request_id)
        self.parameter: str | None = problem.get("parameter")
        self.problem = problem
        self.headers = raw.headers
        self.credits = raw.credits
        self.rate_limit = raw.rate_limit
        self.retry_after = _int_header(raw.headers, "Retry-After")
        super().__init__(f"{self.status} {self.title}: {self.detail}".replace(" : ", ": "))


class Response(Generic[D, M]):
    """A /v1 answer: `data` and `meta` as the operation's TypedDicts, with the call's headers."""

    def __init__(self, raw: RawResponse, body: dict[str, Any]):
        self.raw = raw
        self.data: D = body["data"]
        self.meta: M = body["meta"]

    @property
    def status(self) -> int:
        return self.raw.status

    @property
    def headers(self) -> Mapping[str, str]:
        return self.raw.headers

    @property
    def request_id(self) -> str | None:
        return self.raw.request_id

    @property
    def credits(self) -> Credits:
        return self.raw.credits

    @property
    def rate_limit(self) -> RateLimit:
        return self.raw.rate_limit

    def __repr__(self) -> str:
        size = len(self.data) if isinstance(self.data, (list, dict)) else 1
        return f"<{type(self).__name__} {self.status} data: {size} {type(self.data).__name__} entries>"


class Page(Response[list[R], M]):
    """One page of a paginated operation; iter_pages() and iter_items() fetch the next ones."""

    def __init__(self, raw: RawResponse, body: dict[str, Any], fetch_next: "Callable[[Page[R, M]], Page[R, M] | None]"):
        super().__init__(raw, body)
        self._fetch_next = fetch_next

    @property
    def pagination(self) -> dict[str, Any]:
        meta: Any = self.meta
        return meta.get("pagination") or {}

    @property
    def has_more(self) -> bool:
        return bool(self.pagination.get("has_more"))

    @property
    def next_cursor(self) -> str | None:
        return self.pagination.get("next_cursor")

    def next_page(self) -> "Page[R, M] | None":
        """The following page (one more call), or None after the last."""
        return self._fetch_next(self) if self.has_more else None

    def iter_pages(self) -> "Iterator[Page[R, M]]":
        """This page, then every following one until the last (one call each)."""
        page: Page[R, M] | None = self
        while page is not None:
            yield page
            page = page.next_page()

    def iter_items(self) -> Iterator[R]:
        """Every row of this page and of the following ones, in order."""
        for page in self.iter_pages():
            yield from page.data
