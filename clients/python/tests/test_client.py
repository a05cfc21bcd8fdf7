"""The client's own behaviour: pages followed to the end, problems as typed errors, the billing
headers, the README's example; and, offline, how arguments are sent and answers read."""

import csv
import gzip
import io
import os
import subprocess
import sys
import unittest
from datetime import date

import lastro
from lastro.client import _encode_query
from lastro.response import RawResponse
from support import API_KEY, BASE_URL, LiveTestCase, class_ids, find

HERE = os.path.dirname(os.path.abspath(__file__))


class Pages(LiveTestCase):
    def test_cursor_pages_to_the_end(self):
        # Small pages, followed to the last: every fund once, as one large page has them.
        first = self.client.funds_search(limit=7)
        self.assertTrue(first.has_more)
        self.assertIsNotNone(first.next_cursor)
        pages = list(first.iter_pages())
        self.assertGreater(len(pages), 2)
        self.assertFalse(pages[-1].has_more)
        self.assertIsNone(pages[-1].next_cursor)
        self.assertIsNone(pages[-1].next_page())
        walked = [row["fund_id"] for page in pages for row in page.data]
        self.assertEqual(len(walked), len(set(walked)))
        self.assertEqual(walked, [row["fund_id"] for row in first.iter_items()])
        # The same funds in the same order as pages of the largest size give them.
        self.assertEqual(walked, [row["fund_id"] for row in self.client.funds_search(limit=100).iter_items()])
        # Each page was a call of its own, billed.
        self.assertEqual(len({page.request_id for page in pages}), len(pages))

    def test_cursor_keeps_the_filters(self):
        rows = list(self.client.stocks_list(class_="ON", limit=3).iter_items())
        self.assertGreater(len(rows), 3)
        self.assertTrue(all(row["class"] == "ON" for row in rows))

    def test_offset_pages_to_the_end(self):
        class_id, first = find(
            class_ids(), lambda c: self.client.funds_class_documents(c, limit=2), accept=lambda page: page.has_more
        )
        pages = list(first.iter_pages())
        self.assertGreater(len(pages), 1)
        self.assertEqual([page.meta["pagination"]["offset"] for page in pages], list(range(0, 2 * len(pages), 2)))
        walked = [row["document_id"] for page in pages for row in page.data]
        everything = self.client.funds_class_documents(class_id, limit=100)
        self.assertFalse(everything.has_more)
        self.assertEqual(walked, [row["document_id"] for row in everything.data])


class Problems(LiveTestCase):
    def test_not_found_is_a_typed_error(self):
        with self.assertRaises(lastro.LastroError) as raised:
            self.client.funds_classes("00000000-0000-4000-8000-000000000000")
        error = raised.exception
        self.assertEqual(error.status, 404)
        self.assertEqual(error.title, "Entity, month or resource not found")
        self.assertIn("00000000-0000-4000-8000-000000000000", error.detail)
        self.assertEqual(error.parameter, "fund_id")
        self.assertEqual(error.instance, "/v1/fundos/00000000-0000-4000-8000-000000000000/classes")
        self.assertTrue(error.type.endswith("/problems/http-404"))
        self.assertEqual(error.request_id, error.headers["X-Request-Id"])
        self.assertIsInstance(error.credits.cost, int)
        self.assertIsInstance(error.credits.charged, int)
        self.assertIsInstance(error.credits.remaining, int)
        self.assertIsInstance(error.rate_limit.remaining, int)
        self.assertIn("404", str(error))

    def test_invalid_parameter_is_a_typed_error(self):
        with self.assertRaises(lastro.LastroError) as raised:
            self.client.funds_search(limit=501)
        error = raised.exception
        self.assertEqual((error.status, error.parameter), (422, "limit"))
        self.assertEqual(error.title, "Invalid parameter")
        self.assertEqual(error.credits.charged, 0)  # a refused argument costs nothing

    def test_missing_key_is_a_typed_error(self):
        with self.assertRaises(lastro.LastroError) as raised:
            lastro.Client(BASE_URL).funds_search()
        self.assertEqual(raised.exception.status, 401)


class Billing(LiveTestCase):
    def test_credit_and_rate_headers_of_a_success(self):
        first = self.client.series_cdi_daily(limit=1)
        second = self.client.series_cdi_daily(limit=1)
        credits = second.credits
        self.assertEqual(credits.cost, int(second.headers["X-Credits-Cost"]))
        self.assertGreaterEqual(credits.charged, 1)
        self.assertIsInstance(credits.limit, int)
        self.assertIsInstance(credits.reset, int)
        self.assertEqual(credits.remaining, first.credits.remaining - credits.charged)
        self.assertIsInstance(second.rate_limit.limit, int)
        self.assertIsInstance(second.rate_limit.reset, int)
        self.assertLess(second.rate_limit.remaining, second.rate_limit.limit)

    def test_raw_request(self):
        raw = self.client.request("/v1/fundos", {"limit": 1, "q": "credito"})
        self.assertEqual(raw.status, 200)
        self.assertEqual(len(raw.json()["data"]), 1)
        self.assertEqual(raw.credits.charged, 1)


class OnTheWire(LiveTestCase):
    """What the server offers on every operation (docs/api.md, "On the wire"), through request()."""

    def test_a_large_answer_comes_in_gzip_and_reads_the_same(self):
        raw = self.client.request("/v1/fundos", {"limit": 50})
        self.assertEqual(raw.headers.get("Content-Encoding"), "gzip")
        plain = self.client.request("/v1/fundos", {"limit": 50}, headers={"Accept-Encoding": "identity"})
        self.assertIsNone(plain.headers.get("Content-Encoding"))
        self.assertEqual(raw.json()["data"], plain.json()["data"])

    def test_an_unchanged_answer_is_a_free_304(self):
        first = self.client.request("/v1/fundos", {"limit": 2})
        etag = first.headers["ETag"]
        again = self.client.request("/v1/fundos", {"limit": 2}, headers={"If-None-Match": etag})
        self.assertEqual(again.status, 304)
        self.assertEqual(again.body, b"")
        self.assertEqual(again.credits.charged, 0)
        self.assertEqual(again.credits.remaining, first.credits.remaining)

    def test_csv_holds_the_rows_of_the_json(self):
        rows = self.client.funds_search(limit=5).data
        raw = self.client.request("/v1/fundos", {"limit": 5, "format": "csv"})
        self.assertTrue(raw.headers["Content-Type"].startswith("text/csv"))
        table = list(csv.DictReader(io.StringIO(raw.text(), newline="")))
        self.assertEqual([r["fund_id"] for r in table], [r["fund_id"] for r in rows])
        self.assertEqual(int(raw.headers["X-Row-Count"]), len(rows))
        self.assertIn('rel="next"', raw.headers["Link"])


class Example(LiveTestCase):
    def test_the_example_runs(self):
        env = dict(os.environ, LASTRO_BASE_URL=BASE_URL, LASTRO_API_KEY=API_KEY)
        done = subprocess.run(
            [sys.executable, os.path.join(HERE, "..", "example.py")],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(done.stdout, r"\d{14} ")
        self.assertIn("credits left", done.stdout)


class Offline(unittest.TestCase):
    def test_query_encoding(self):
        query = {"q": "crédito imobiliário", "include_inactive": True, "from": date(2026, 1, 2), "limit": 5}
        query["cursor"] = None  # not sent
        self.assertEqual(
            _encode_query(query), "q=cr%C3%A9dito%20imobili%C3%A1rio&include_inactive=true&from=2026-01-02&limit=5"
        )

    def test_python_names_of_api_names(self):
        # `from` and `class` are Python keywords: the methods take from_ and class_.
        code = lastro.Client.funds_class_quotas.__code__
        self.assertIn("from_", code.co_varnames[: code.co_argcount + code.co_kwonlyargcount])

    def test_gzip_answers_are_read(self):
        raw = RawResponse(200, {"Content-Encoding": "gzip"}, gzip.compress(b'{"data": [], "meta": {}}'))
        self.assertEqual(raw.json(), {"data": [], "meta": {}})

    def test_problem_without_json(self):
        error = lastro.LastroError(RawResponse(502, {}, b"<html>bad gateway</html>"))
        self.assertEqual(error.status, 502)
        self.assertIn("bad gateway", error.detail)
        self.assertIsNone(error.credits.charged)


if __name__ == "__main__":
    unittest.main()
