// What the server does on the wire for every /v1 operation, through LastroClient: conditional
// requests (ETag, If-None-Match -> a free 304), gzip, and CSV pages followed by their Link.
// Environment: LASTRO_BASE_URL, LASTRO_API_KEY.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type CsvAnswer, LastroClient } from "../src/index.js";
import { assertCredits, environment, parseCsv, rejection, UUID } from "./helpers.js";

const baseUrl = environment("LASTRO_BASE_URL");
const apiKey = environment("LASTRO_API_KEY");
const lastro = new LastroClient({ baseUrl, apiKey });

// 16 hex digits, then -csv for CSV and -gzip for a compressed answer (docs/api.md).
const ETAG = /^"[0-9a-f]{16}(-csv)?(-gzip)?"$/;

test("an ETag round trip: 200, the same call 304 and free, a changed call 200", async () => {
    const first = await lastro.get("/v1/fundos", { query: { limit: 3 } });
    assert.equal(first.status, 200);
    assert.match(first.etag ?? "", ETAG);
    const etag = first.etag ?? assert.fail("no ETag");

    const same = await lastro.get("/v1/fundos", { query: { limit: 3 }, ifNoneMatch: etag });
    assert.ok(same.notModified, `expected 304, got ${same.status}`);
    assert.equal(same.status, 304);
    assert.equal(same.etag, etag);
    assert.equal("body" in same, false);
    const credits = assertCredits(same.credits);
    assert.equal(credits.charged, 0, "a 304 is free");
    assert.ok(credits.cost > 0 && credits.limit > 0);
    assert.ok(same.rateLimit && same.rateLimit.limit > 0);
    assert.match(same.requestId ?? "", UUID);

    const changed = await lastro.get("/v1/fundos", { query: { limit: 4 }, ifNoneMatch: etag });
    assert.ok(!changed.notModified, "a changed request answered 304");
    assert.equal(changed.status, 200);
    assert.equal(changed.data.length, 4);
    assert.match(changed.etag ?? "", ETAG);
    assert.notEqual(changed.etag, etag);
    assert.ok(assertCredits(changed.credits).charged > 0);
});

test("If-None-Match: * and a list naming the tag answer 304 too; getCsv takes ifNoneMatch", async () => {
    const star = await lastro.get("/v1/acoes", { query: { limit: 2 }, ifNoneMatch: "*" });
    assert.ok(star.notModified);
    const csv = await lastro.getCsv("/v1/acoes", { query: { limit: 2 } });
    assert.match(csv.etag ?? "", /-csv/);
    const list = `"0000000000000000", ${csv.etag}`;
    const again = await lastro.getCsv("/v1/acoes", { query: { limit: 2 }, ifNoneMatch: list });
    assert.ok(again.notModified);
    assert.equal(again.etag, csv.etag);
    assert.equal(assertCredits(again.credits).charged, 0);
});

test("a 304 to an If-None-Match passed among the headers is a LastroError (no body to type)", async () => {
    const { etag } = await lastro.get("/v1/acoes", { query: { limit: 2 } });
    const error = await rejection(
        lastro.get("/v1/acoes", { query: { limit: 2 }, headers: { "If-None-Match": etag ?? "*" } }),
    );
    assert.equal(error.status, 304);
});

test("answers come gzipped on the wire, inflated, with their credit headers", async () => {
    const answer = await lastro.get("/v1/fundos", { query: { limit: 50 } });
    // Node's fetch asked for gzip; the headers are as the server sent them.
    assert.equal(answer.headers.get("Content-Encoding"), "gzip", "the client did not receive gzip");
    assert.match(answer.etag ?? "", /-gzip"$/);
    assert.equal(answer.data.length, 50);
    assert.ok(assertCredits(answer.credits).charged > 0);
    assert.ok(answer.rateLimit && answer.rateLimit.limit > 0);

    // The same answer plain: what gzip saved on the wire.
    const plain = await fetch(`${baseUrl}/v1/fundos?limit=50`, {
        headers: { Authorization: `Bearer ${apiKey}`, "Accept-Encoding": "identity" },
    });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("Content-Encoding"), null);
    const plainBytes = (await plain.arrayBuffer()).byteLength;
    const gzipBytes = Number(answer.headers.get("Content-Length"));
    assert.ok(gzipBytes > 0 && gzipBytes * 2 < plainBytes, `gzip ${gzipBytes} bytes, plain ${plainBytes}`);
});

test("csvPages walks /v1/fundos?limit=3 to the end: the JSON's rows, fund_id by fund_id", async () => {
    const jsonIds: string[] = [];
    for await (const fund of lastro.items("/v1/fundos", { query: { limit: 100 } })) {
        jsonIds.push(fund.fund_id);
    }

    const csvIds: string[] = [];
    const pages: CsvAnswer[] = [];
    for await (const page of lastro.csvPages("/v1/fundos", { query: { limit: 3 } })) {
        pages.push(page);
        assert.equal(page.headers.get("Content-Type"), "text/csv; charset=utf-8; header=present");
        const [header, ...rows] = parseCsv(page.text);
        const column = header?.indexOf("fund_id") ?? -1;
        assert.ok(column >= 0, `no fund_id column in ${String(header)}`);
        assert.equal(rows.length, page.rowCount, "X-Row-Count is not the number of records");
        assert.ok(page.rowCount <= 3);
        for (const row of rows) {
            assert.equal(row.length, header?.length);
            csvIds.push(row[column] ?? "");
        }
        assert.equal(typeof page.dataRelease, "string");
        assert.match(page.etag ?? "", /^"[0-9a-f]{16}-csv(-gzip)?"$/);
        assertCredits(page.credits);
    }
    assert.ok(pages.length > 2, `only ${pages.length} page(s)`);
    assert.ok(pages.slice(0, -1).every((page) => page.next !== null && page.rowCount === 3));
    assert.equal(pages.at(-1)?.next, null);
    assert.equal(csvIds.length, jsonIds.length);
    assert.deepEqual(csvIds, jsonIds);
});

test("CSV of an operation that answers one object is a 422 naming format", async () => {
    const { data } = await lastro.get("/v1/fundos", { query: { limit: 1 } });
    const class_id = data[0]?.classes[0]?.class_id ?? assert.fail("no class");
    // The types refuse this call (test/types.check.ts); forced past them, the server refuses it.
    const untypedGetCsv = lastro.getCsv.bind(lastro) as (path: string, options: object) => Promise<CsvAnswer>;
    const error = await rejection(untypedGetCsv("/v1/classes/{class_id}/snapshot", { path: { class_id } }));
    assert.equal(error.status, 422);
    assert.equal(error.parameter, "format");
    assert.match(error.detail, /format=csv/);
    assert.match(error.headers.get("Content-Type") ?? "", /^application\/problem\+json/);
    assert.equal(assertCredits(error.credits).charged, 0);
});
