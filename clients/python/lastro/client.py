"""The client: one typed method per operation (from _generated.Operations) over urllib."""

import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from datetime import date
from typing import Any

from ._generated import API_VERSION, Operations
from .response import LastroError, Page, RawResponse, Response


class Client(Operations):
    """A Lastro API client.

        client = Client("http://127.0.0.1:8080", api_key)
        page = client.funds_search(q="credito")       # a Page: page.data, page.meta, page.credits
        for fund in page.iter_items(): ...             # every fund, page after page

    Every method raises LastroError for a problem answer (4xx, 5xx), and OSError (urllib's
    URLError, TimeoutError) when the server cannot be reached.
    """

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.user_agent = f"lastro-python (API {API_VERSION})"

    def request(
        self, path: str, query: Mapping[str, Any] | None = None, *, headers: Mapping[str, str] | None = None
    ) -> RawResponse:
        """GET PATH?QUERY as is: for what the typed methods do not cover (another format such as
        CSV, conditional requests). Answers below 400 (a 304 too) are returned; a problem raises
        LastroError."""
        target = self.base_url + path
        encoded = _encode_query(query or {})
        if encoded:
            target += "?" + encoded
        sent = {"User-Agent": self.user_agent, "Accept-Encoding": "gzip"}
        if self.api_key:
            sent["Authorization"] = f"Bearer {self.api_key}"
        sent.update(headers or {})
        request = urllib.request.Request(target, headers=sent, method="GET")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                raw = RawResponse(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as error:
            # urllib raises for every status it does not follow; a 304 is an answer, not a fault.
            with error:
                raw = RawResponse(error.code, error.headers, error.read())
            if raw.status >= 400:
                raise LastroError(raw) from None
        return raw

    def _call(
        self, operation: str, path: str, path_args: dict[str, Any], query: dict[str, Any], answer: str
    ) -> Any:
        filled = path
        for name, value in path_args.items():
            filled = filled.replace("{" + name + "}", urllib.parse.quote(_text(value), safe=""))
        raw = self.request(filled, query, headers={"Accept": "application/json"})
        body = raw.json()
        if answer == "body":
            return body
        if answer == "envelope":
            return Response(raw, body)

        def fetch_next(page: Page[Any, Any]) -> Page[Any, Any] | None:
            pagination = page.pagination
            if answer == "cursor":
                if not pagination.get("next_cursor"):
                    return None
                following = {**query, "cursor": pagination["next_cursor"]}
            else:  # offset pages: the next starts where this one's limit ends
                following = {**query, "offset": pagination.get("offset", 0) + pagination.get("limit", len(page.data))}
            return self._call(operation, path, path_args, following, answer)

        return Page(raw, body, fetch_next)

    def __repr__(self) -> str:
        return f"Client({self.base_url!r})"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def _encode_query(query: Mapping[str, Any]) -> str:
    # None means "not sent" (the server's default); spaces as %20, not "+".
    return urllib.parse.urlencode(
        [(name, _text(value)) for name, value in query.items() if value is not None], quote_via=urllib.parse.quote
    )
