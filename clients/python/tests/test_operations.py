"""Every operation of the API called once through the client against the live demo server, its
answer checked against the method's generated annotation (tests/support.py, assertTyped).

One test per generated method, named test_<method>; test_generated.py fails when an operation
has none."""

import unittest

from support import LiveTestCase, class_ids, class_with_reports, example, find, funds


def months_of(client, class_id):
    return sorted({row["month"] for row in client.funds_class_quotas(class_id).data}, reverse=True)


class Discovery(LiveTestCase):
    def test_health(self):
        self.assertTyped("health", self.client.health())

    def test_pricing(self):
        self.assertTyped("pricing", self.client.pricing())

    def test_openapi(self):
        document = self.client.openapi()
        self.assertTyped("openapi", document)
        self.assertIn("/v1/fundos", document["paths"])

    def test_schema_read(self):
        answer = self.client.schema_read()
        self.assertTyped("schema.read", answer)
        self.assertTrue(answer.data["resources"])


class Funds(LiveTestCase):
    def test_funds_search(self):
        answer = self.client.funds_search(q="credito", limit=5)
        self.assertTyped("funds.search", answer)
        self.assertIsInstance(answer.data[0]["fund_id"], str)
        self.assertIsInstance(answer.data[0]["classes"], list)

    def test_funds_resolve(self):
        fund = funds()[0]
        answer = self.client.funds_resolve(cnpj=fund["cnpj"])
        self.assertTyped("funds.resolve", answer)
        self.assertIn(fund["fund_id"], [f["fund_id"] for f in answer.data["funds"]])

    def test_funds_classes(self):
        fund = funds()[0]
        answer = self.client.funds_classes(fund["fund_id"])
        self.assertTyped("funds.classes", answer)
        self.assertEqual({c["class_id"] for c in answer.data}, {c["class_id"] for c in fund["classes"]})

    def test_funds_class_documents(self):
        _, answer = find(class_ids(), lambda c: self.client.funds_class_documents(c, limit=5))
        self.assertTyped("funds.class_documents", answer)

    def test_funds_class_subclasses(self):
        _, answer = find(class_ids(), self.client.funds_class_subclasses)
        self.assertTyped("funds.class_subclasses", answer)

    def test_funds_class_portfolio_assets(self):
        pairs = ((c, m) for c in class_ids() for m in months_of(self.client, c))
        _, answer = find(pairs, lambda cm: self.client.funds_class_portfolio_assets(cm[0], month=cm[1]))
        self.assertTyped("funds.class_portfolio_assets", answer)

    def test_funds_class_portfolio_funds(self):
        pairs = ((c, m) for c in class_ids() for m in months_of(self.client, c))
        _, answer = find(pairs, lambda cm: self.client.funds_class_portfolio_funds(cm[0], month=cm[1]))
        self.assertTyped("funds.class_portfolio_funds", answer)

    def test_funds_class_quotas(self):
        class_id, months = class_with_reports()
        answer = self.client.funds_class_quotas(class_id, from_=months[-1], to=months[0])
        self.assertTyped("funds.class_quotas", answer)
        self.assertIsInstance(answer.data[0]["quota_value_brl"], (int, float, type(None)))

    def test_funds_class_quota_operations(self):
        _, answer = find(class_ids(), self.client.funds_class_quota_operations)
        self.assertTyped("funds.class_quota_operations", answer)

    def test_funds_class_delinquency_bands(self):
        class_id, months = class_with_reports()
        _, answer = find(months, lambda m: self.client.funds_class_delinquency_bands(class_id, month=m))
        self.assertTyped("funds.class_delinquency_bands", answer)

    def test_funds_class_snapshot(self):
        class_id, months = class_with_reports()
        answer = self.client.funds_class_snapshot(class_id)
        self.assertTyped("funds.class_snapshot", answer)
        self.assertEqual(answer.data["month"], months[0])

    def test_funds_screening(self):
        answer = self.client.funds_screening(fund_type="FIDC", sort="nav_brl", order="desc", limit=10)
        self.assertTyped("funds.screening", answer)
        navs = [row["nav_brl"] for row in answer.data if row["nav_brl"] is not None]
        self.assertEqual(navs, sorted(navs, reverse=True))


class Industry(LiveTestCase):
    def test_industry_indicators(self):
        answer = self.client.industry_indicators(indicador="resumo", months=36)
        self.assertTyped("industry.indicators", answer)
        self.assertEqual(answer.data["indicator"], "resumo")

    def test_industry_manager_ranking(self):
        answer = self.client.industry_manager_ranking(limit=10)
        self.assertTyped("industry.manager_ranking", answer)


class Series(LiveTestCase):
    def test_series_macro_values(self):
        answer = self.client.series_macro_values(example("series.macro_values", "serie_id"), frequency="yearly")
        self.assertTyped("series.macro_values", answer)

    def test_series_macro_table(self):
        answer = self.client.series_macro_table(series=example("series.macro_table", "series"))
        self.assertTyped("series.macro_table", answer)

    def test_series_cdi_daily(self):
        answer = self.client.series_cdi_daily(limit=10)
        self.assertTyped("series.cdi_daily", answer)
        self.assertIsInstance(answer.data[0]["factor"], (int, float))

    def test_series_fund_performance(self):
        answer = self.client.series_fund_performance(example("series.fund_performance", "cnpj"), limit=20)
        self.assertTyped("series.fund_performance", answer)

    def test_series_fund_identities(self):
        answer = self.client.series_fund_identities(example("series.fund_identities", "cnpj"))
        self.assertTyped("series.fund_identities", answer)


class Companies(LiveTestCase):
    def test_companies_list(self):
        answer = self.client.companies_list(q="siderurgica")
        self.assertTyped("companies.list", answer)
        self.assertIsInstance(answer.data[0]["cvm_code"], int)

    def test_companies_documents(self):
        answer = self.client.companies_documents(example("companies.documents", "cvm_code"), versions="all")
        self.assertTyped("companies.documents", answer)

    def test_companies_fre_rows(self):
        cnpj, table = example("companies.fre_rows", "cnpj"), example("companies.fre_rows", "table")
        answer = self.client.companies_fre_rows(cnpj, table)
        self.assertTyped("companies.fre_rows", answer)

    def test_companies_issuances(self):
        answer = self.client.companies_issuances(tipo="CRI")
        self.assertTyped("companies.issuances", answer)


class Stocks(LiveTestCase):
    def test_stocks_list(self):
        answer = self.client.stocks_list(sort="market_cap", order="desc", class_="ON")
        self.assertTyped("stocks.list", answer)
        self.assertTrue(all(row["class"] == "ON" for row in answer.data))

    def test_stocks_quotes(self):
        answer = self.client.stocks_quotes(example("stocks.quotes", "ticker"), adjustment="total", limit=20)
        self.assertTyped("stocks.quotes", answer)

    def test_stocks_ticker_events(self):
        answer = self.client.stocks_ticker_events(example("stocks.ticker_events", "ticker"))
        self.assertTyped("stocks.ticker_events", answer)

    def test_stocks_events(self):
        answer = self.client.stocks_events(limit=20)
        self.assertTyped("stocks.events", answer)


if __name__ == "__main__":
    unittest.main()
