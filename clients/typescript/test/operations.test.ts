// Calls every operation of a live lastrod with the demo data through LastroClient, in an order
// where each finds its arguments in earlier answers (a fund's id, a class with a portfolio, a
// ticker with corporate actions...), and checks the typed answer: data present, key fields of
// the right type. Then cursor pages, problems and the credit headers.
// Environment: LASTRO_BASE_URL, LASTRO_API_KEY, LASTRO_OPENAPI (the server's /openapi.json).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { type Answer, LastroClient, LastroError } from "../src/index.js";
import { assertCredits, environment, rejection, UUID } from "./helpers.js";

const baseUrl = environment("LASTRO_BASE_URL");
const apiKey = environment("LASTRO_API_KEY");
const spec = JSON.parse(readFileSync(environment("LASTRO_OPENAPI"), "utf8")) as OpenApiDocument;
const lastro = new LastroClient({ baseUrl, apiKey });

// The path templates that answered 2xx, seen by openapi-fetch's middleware, for the coverage test.
const answered = new Set<string>();
lastro.raw.use({
    onResponse({ schemaPath, response }) {
        if (response.ok) answered.add(schemaPath);
    },
});

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CNPJ = /^\d{14}$/;
const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";
const MAX_CANDIDATES = 40;

// What earlier answers found, for the calls after them.
const found = {
    fund: undefined as { fund_id: string; cnpj: string } | undefined,
    screened: [] as { class_id: string; month: string }[],
    classIds: [] as string[],
    cvmCodes: [] as number[],
    tickers: [] as string[],
    eventTickers: [] as string[],
};

// ---- outside /v1: no key, no credits

test("health GET /health", async () => {
    const answer = await lastro.get("/health");
    assert.equal(answer.body.status, "ok");
    assert.equal(typeof answer.body.version, "string");
    assert.equal(answer.credits, null);
});

test("pricing GET /pricing", async () => {
    const answer = await lastro.get("/pricing");
    assert.equal(typeof answer.body.policy_version, "string");
    assert.ok(Array.isArray(answer.body.operations) && answer.body.operations.length > 0);
});

test("openapi GET /openapi.json", async () => {
    const answer = await lastro.get("/openapi.json");
    assert.match(answer.body.openapi, /^3\.1\./);
    assert.deepEqual(Object.keys(answer.body.paths).sort(), Object.keys(spec.paths).sort());
});

test("docs GET /docs", async () => {
    const answer = await lastro.get("/docs");
    const html: string = answer.body;
    assert.match(html, /<html/i);
});

// ---- funds

test("schema.read GET /v1/schema", async () => {
    const { data } = await lastro.get("/v1/schema");
    assert.equal(typeof data.contract_version, "string");
    assert.ok(data.entities.length > 0);
});

test("funds.search GET /v1/fundos", async () => {
    const { data, meta } = await lastro.get("/v1/fundos", { query: { limit: 50 } });
    assert.ok(data.length > 0);
    assert.equal(meta.row_count, data.length);
    for (const fund of data) {
        assert.match(fund.fund_id, UUID);
        assert.match(fund.cnpj, CNPJ);
        for (const fundClass of fund.classes) assert.match(fundClass.class_id, UUID);
    }
    found.fund = data.find((fund) => fund.classes.length > 0);
    assert.ok(found.fund, "no fund with a class");
    found.classIds.push(...data.flatMap((fund) => fund.classes.map((fundClass) => fundClass.class_id)));
});

test("funds.resolve GET /v1/resolve", async () => {
    const fund = need(found.fund);
    const { data } = await lastro.get("/v1/resolve", { query: { cnpj: fund.cnpj } });
    assert.equal(typeof data.resolution, "string");
    assert.ok(data.funds.some((match) => match.fund_id === fund.fund_id));
});

test("funds.classes GET /v1/fundos/{fund_id}/classes", async () => {
    const fund = need(found.fund);
    const { data } = await lastro.get("/v1/fundos/{fund_id}/classes", { path: { fund_id: fund.fund_id } });
    assert.ok(data.length > 0);
    for (const fundClass of data) {
        assert.match(fundClass.class_id, UUID);
        assert.equal(fundClass.fund_id, fund.fund_id);
    }
});

test("funds.screening GET /v1/screening", async () => {
    const { data } = await lastro.get("/v1/screening", { query: { limit: 100, sort: "nav_brl", order: "desc" } });
    assert.ok(data.length > 0);
    for (const row of data) {
        assert.match(row.class_id, UUID);
        assert.match(row.month, MONTH);
        assert.ok(row.nav_brl === null || typeof row.nav_brl === "number");
    }
    found.screened = data.map((row) => ({ class_id: row.class_id, month: row.month }));
});

test("funds.class_snapshot GET /v1/classes/{class_id}/snapshot", async () => {
    const { class_id } = need(found.screened[0]);
    const { data } = await lastro.get("/v1/classes/{class_id}/snapshot", { path: { class_id } });
    assert.equal(data.class_id, class_id);
    assert.match(data.month, MONTH);
    assert.ok(data.nav_brl === null || typeof data.nav_brl === "number");
});

test("funds.class_quotas GET /v1/classes/{class_id}/cotas", async () => {
    const { class_id } = need(found.screened[0]);
    const { data } = await lastro.get("/v1/classes/{class_id}/cotas", { path: { class_id } });
    assert.ok(data.length > 0);
    for (const row of data) {
        assert.match(row.month, MONTH);
        assert.equal(typeof row.series_id, "string");
        assert.ok(row.total_nav_brl === null || typeof row.total_nav_brl === "number");
    }
});

test("funds.class_quota_operations GET /v1/classes/{class_id}/cotas/operacoes", async () => {
    const { data } = await firstWithData(screenedClasses(), ({ class_id }) =>
        lastro.get("/v1/classes/{class_id}/cotas/operacoes", { path: { class_id } }),
    );
    for (const row of data) {
        assert.match(row.month, MONTH);
        assert.ok(row.net_flow_brl === null || typeof row.net_flow_brl === "number");
    }
});

test("funds.class_documents GET /v1/classes/{class_id}/documentos", async () => {
    const { data } = await firstWithData(screenedClasses(), ({ class_id }) =>
        lastro.get("/v1/classes/{class_id}/documentos", { path: { class_id } }),
    );
    for (const document of data) {
        assert.equal(typeof document.document_id, "string");
        assert.equal(typeof document.document_type, "string");
    }
});

test("funds.class_subclasses GET /v1/classes/{class_id}/subclasses", async () => {
    const { data } = await firstWithData(screenedClasses(), ({ class_id }) =>
        lastro.get("/v1/classes/{class_id}/subclasses", { path: { class_id } }),
    );
    for (const subclass of data) {
        assert.equal(typeof subclass.subclass_id, "string");
        assert.equal(typeof subclass.anbima_code, "string");
    }
});

test("funds.class_portfolio_assets GET /v1/classes/{class_id}/carteira/ativos", async () => {
    const { data, meta } = await firstWithData(screenedClasses(), ({ class_id, month }) =>
        lastro.get("/v1/classes/{class_id}/carteira/ativos", { path: { class_id }, query: { month } }),
    );
    assert.equal(typeof meta.pagination.has_more, "boolean");
    for (const position of data) {
        assert.equal(typeof position.position_id, "string");
        assert.equal(typeof position.block, "string");
    }
});

test("funds.class_portfolio_funds GET /v1/classes/{class_id}/carteira/fundos", async () => {
    const { data } = await firstWithData(screenedClasses(), ({ class_id, month }) =>
        lastro.get("/v1/classes/{class_id}/carteira/fundos", { path: { class_id }, query: { month } }),
    );
    for (const position of data) {
        assert.match(position.month, MONTH);
        assert.match(position.invested_cnpj, CNPJ);
        assert.ok(position.position_brl === null || typeof position.position_brl === "number");
    }
});

test("funds.class_delinquency_bands GET /v1/classes/{class_id}/carteira/inadimplencia/faixas", async () => {
    const { data } = await firstWithData(screenedClasses(), ({ class_id, month }) =>
        lastro.get("/v1/classes/{class_id}/carteira/inadimplencia/faixas", { path: { class_id }, query: { month } }),
    );
    for (const band of data) {
        assert.match(band.month, MONTH);
        assert.equal(typeof band.overdue_days, "number");
    }
});

// ---- industry

test("industry.indicators GET /v1/industria", async () => {
    const { data } = await lastro.get("/v1/industria", { query: { indicador: "resumo", months: 12 } });
    assert.ok(data.items.length > 0);
    assert.ok(Array.isArray(data.coverage["available_months"])); // coverage is an open object
});

test("industry.manager_ranking GET /v1/industria/gestoras/ranking", async () => {
    const { data } = await lastro.get("/v1/industria/gestoras/ranking", { query: { limit: 10 } });
    assert.ok(data.items.length > 0);
    assert.ok(Array.isArray(data.coverage.available_months));
});

// ---- series

test("series.macro_values GET /v1/macroeconomia/{serie_id}", async () => {
    const serie_id = Number(example("/v1/macroeconomia/{serie_id}", "serie_id"));
    const { data } = await lastro.get("/v1/macroeconomia/{serie_id}", {
        path: { serie_id },
        query: { frequency: "yearly" },
    });
    assert.ok(data.length > 0);
    for (const row of data) {
        assert.match(row.date, DATE);
        assert.ok(row.value === null || typeof row.value === "number");
    }
});

test("series.cdi_daily GET /v1/benchmarks/cdi/serie-diaria", async () => {
    const { data } = await lastro.get("/v1/benchmarks/cdi/serie-diaria", { query: { limit: 20 } });
    assert.equal(data.length, 20);
    for (const row of data) {
        assert.match(row.date, DATE);
        assert.ok(row.factor === null || typeof row.factor === "number");
    }
});

test("series.macro_table GET /v1/macroeconomia", async () => {
    const series = String(example("/v1/macroeconomia", "series"));
    const { data } = await lastro.get("/v1/macroeconomia", { query: { series, limit: 20 } });
    assert.ok(data.length > 0);
    for (const row of data) {
        assert.match(row.date, DATE);
        assert.equal(typeof row.values, "object");
    }
});

test("series.fund_identities GET /v1/series-diarias/{cnpj}/identidades", async () => {
    const cnpj = String(example("/v1/series-diarias/{cnpj}/identidades", "cnpj"));
    const { data } = await lastro.get("/v1/series-diarias/{cnpj}/identidades", { path: { cnpj } });
    assert.ok(data.length > 0);
    for (const identity of data) {
        assert.equal(identity.cnpj, cnpj);
        assert.equal(typeof identity.source_series_id, "string");
    }
});

test("series.fund_performance GET /v1/series-diarias/{cnpj}/desempenho", async () => {
    const cnpj = String(example("/v1/series-diarias/{cnpj}/desempenho", "cnpj"));
    const { data } = await lastro.get("/v1/series-diarias/{cnpj}/desempenho", { path: { cnpj }, query: { limit: 20 } });
    assert.ok(data.length > 0);
    for (const day of data) {
        assert.match(day.date, DATE);
        assert.ok(day.quota === null || typeof day.quota === "number");
    }
});

// ---- companies

test("companies.list GET /v1/companhias", async () => {
    const { data } = await lastro.get("/v1/companhias", { query: { limit: 100 } });
    assert.ok(data.length > 0);
    for (const company of data) {
        assert.equal(typeof company.cvm_code, "number");
        assert.ok(company.cnpj === null || CNPJ.test(company.cnpj));
    }
    found.cvmCodes = data.map((company) => company.cvm_code);
});

test("companies.documents GET /v1/companhias/{cvm_code}/documentos", async () => {
    const { data } = await firstWithData(found.cvmCodes, (cvm_code) =>
        lastro.get("/v1/companhias/{cvm_code}/documentos", { path: { cvm_code } }),
    );
    for (const document of data) {
        assert.equal(typeof document.protocol, "string");
        assert.equal(typeof document.latest_version, "boolean");
    }
});

test("companies.fre_rows GET /v1/companhias/fre/{cnpj}/{table}/linhas", async () => {
    const path = "/v1/companhias/fre/{cnpj}/{table}/linhas";
    const cnpj = String(example(path, "cnpj"));
    const table = String(example(path, "table"));
    const { data } = await lastro.get(path, { path: { cnpj, table } });
    assert.ok(data.length > 0);
    for (const row of data) {
        assert.equal(row.cnpj, cnpj);
        assert.equal(typeof row.version, "number");
    }
});

test("companies.issuances GET /v1/emissoes", async () => {
    const { data } = await lastro.get("/v1/emissoes", { query: { tipo: "CRI" } });
    assert.ok(data.length > 0);
    for (const issuance of data) {
        assert.equal(issuance.tipo, "CRI");
        assert.match(issuance.month, MONTH);
    }
});

// ---- stocks

test("stocks.list GET /v1/acoes", async () => {
    const { data } = await lastro.get("/v1/acoes", { query: { sort: "market_cap", order: "desc", limit: 100 } });
    assert.ok(data.length > 0);
    for (const stock of data) {
        assert.equal(typeof stock.ticker, "string");
        assert.match(stock.last_date, DATE);
        assert.ok(stock.last_close === null || typeof stock.last_close === "number");
    }
    found.tickers = data.map((stock) => stock.ticker);
});

test("stocks.quotes GET /v1/acoes/{ticker}/cotacoes", async () => {
    const { data } = await firstWithData(found.tickers, (ticker) =>
        lastro.get("/v1/acoes/{ticker}/cotacoes", { path: { ticker }, query: { adjustment: "total" } }),
    );
    for (const quote of data) {
        assert.match(quote.date, DATE);
        assert.ok(quote.close === null || typeof quote.close === "number");
    }
});

test("stocks.events GET /v1/proventos", async () => {
    const { data } = await lastro.get("/v1/proventos");
    assert.ok(data.length > 0);
    for (const event of data) {
        assert.equal(typeof event.id, "string");
        assert.equal(typeof event.kind, "string");
    }
    // tickers is an array of unknown items in the document: keep the strings
    const tickers = data.flatMap((event) => event.tickers.filter((t): t is string => typeof t === "string"));
    found.eventTickers = [...new Set(tickers)];
});

test("stocks.ticker_events GET /v1/acoes/{ticker}/proventos", async () => {
    const { data } = await firstWithData(found.eventTickers, (ticker) =>
        lastro.get("/v1/acoes/{ticker}/proventos", { path: { ticker } }),
    );
    for (const event of data) {
        assert.equal(typeof event.id, "string");
        assert.equal(typeof event.label, "string");
    }
});

// ---- what every operation shares

test("every operation of the document was called and answered", () => {
    const missing = Object.keys(spec.paths).filter((path) => spec.paths[path]?.get && !answered.has(path));
    assert.deepEqual(missing, [], "operations never called: add a test in test/operations.test.ts");
});

test("pages() walks a cursor operation to its last page", async () => {
    const all = await lastro.get("/v1/acoes", { query: { limit: 500 } });
    const pages: number[] = [];
    const tickers: string[] = [];
    for await (const page of lastro.pages("/v1/acoes", { query: { limit: 10 } })) {
        pages.push(page.data.length);
        tickers.push(...page.data.map((stock) => stock.ticker));
        assert.equal(page.meta.pagination.has_more, page.meta.pagination.next_cursor !== null);
    }
    assert.ok(pages.length >= 2, `only ${pages.length} page(s)`);
    assert.deepEqual(tickers, all.data.map((stock) => stock.ticker));
});

test("items() yields every row of every page", async () => {
    const all = await lastro.get("/v1/proventos", { query: { limit: 500 } });
    const ids: string[] = [];
    for await (const event of lastro.items("/v1/proventos", { query: { limit: 7 } })) ids.push(event.id);
    assert.ok(all.data.length > 7);
    assert.deepEqual(ids, all.data.map((event) => event.id));
});

test("a success carries the credit and rate-limit headers", async () => {
    const first = await lastro.get("/v1/fundos", { query: { limit: 1 } });
    const second = await lastro.get("/v1/fundos", { query: { limit: 1 } });
    const credits = assertCredits(second.credits);
    assert.ok(credits.cost > 0);
    assert.ok(credits.limit > 0);
    assert.ok(credits.remaining <= assertCredits(first.credits).remaining - credits.charged);
    assert.ok(second.rateLimit && second.rateLimit.limit > 0 && second.rateLimit.reset > 0);
    assert.match(second.requestId ?? "", UUID);
});

test("a 404 is a LastroError with the problem and the credit headers", async () => {
    const error = await rejection(
        lastro.get("/v1/fundos/{fund_id}/classes", { path: { fund_id: UNKNOWN_UUID } }),
    );
    assert.equal(error.status, 404);
    assert.equal(error.title, "Entity, month or resource not found");
    assert.match(error.detail, new RegExp(UNKNOWN_UUID));
    assert.equal(error.parameter, "fund_id");
    assert.equal(error.instance, `/v1/fundos/${UNKNOWN_UUID}/classes`);
    assert.match(error.type ?? "", /\/problems\/http-404$/);
    assert.match(error.requestId ?? "", UUID);
    assert.ok(assertCredits(error.credits).cost > 0);
    assert.ok(error.rateLimit && error.rateLimit.limit > 0);
});

test("a 422 names the offending parameter and charges nothing", async () => {
    const error = await rejection(lastro.get("/v1/companhias", { query: { limit: 501 } }));
    assert.equal(error.status, 422);
    assert.equal(typeof error.title, "string");
    assert.equal(error.parameter, "limit");
    assert.ok(error.detail.length > 0);
    assert.equal(assertCredits(error.credits).charged, 0);
});

test("a 401 without a key", async () => {
    const anonymous = new LastroClient({ baseUrl });
    const error = await rejection(anonymous.get("/v1/acoes"));
    assert.equal(error.status, 401);
    assert.equal(error.title, "Missing or invalid API key");
    assert.ok(error.message.startsWith("401 Missing or invalid API key: "));
});

// ---- helpers

interface OpenApiDocument {
    paths: Record<string, { get?: { parameters?: { name: string; example?: unknown }[] } }>;
}

function need<T>(value: T | undefined): T {
    assert.ok(value !== undefined, "an earlier test found nothing to call this one with");
    return value;
}

/** The example the document gives for a parameter: demo values for standalone locators. */
function example(path: string, name: string): unknown {
    const parameter = spec.paths[path]?.get?.parameters?.find((p) => p.name === name);
    assert.ok(parameter?.example !== undefined, `the document has no example for ${name} of ${path}`);
    return parameter.example;
}

function screenedClasses() {
    return need(found.screened.length > 0 ? found.screened : undefined);
}

/** The first candidate's answer that has data; a 404 (no such month here) tries the next. */
async function firstWithData<C, A extends Answer<{ data: unknown }>>(
    candidates: readonly C[],
    call: (candidate: C) => Promise<A>,
): Promise<A> {
    for (const candidate of candidates.slice(0, MAX_CANDIDATES)) {
        try {
            const answer = await call(candidate);
            const data = answer.body.data;
            if (Array.isArray(data) ? data.length > 0 : data !== null) return answer;
        } catch (error) {
            if (!(error instanceof LastroError && error.status === 404)) throw error;
        }
    }
    assert.fail(`none of ${Math.min(candidates.length, MAX_CANDIDATES)} candidates answered data`);
}
