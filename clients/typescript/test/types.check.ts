// Compiled by tsc with the tests, never run: each @ts-expect-error line must be a type error,
// so the generated types really constrain the calls (tsc fails if one of them compiles).
import { LastroClient } from "../src/index.js";

export async function typeChecks(lastro: LastroClient): Promise<void> {
    // @ts-expect-error class_id is a required path parameter
    await lastro.get("/v1/classes/{class_id}/snapshot");
    // @ts-expect-error month is a required query parameter
    await lastro.get("/v1/classes/{class_id}/carteira/ativos", { path: { class_id: "id" } });
    // @ts-expect-error no such path
    await lastro.get("/v1/nothing");
    // @ts-expect-error not one of the classes of the document's enum
    await lastro.get("/v1/acoes", { query: { class: "XYZ" } });
    // @ts-expect-error limit is an integer, not a string
    await lastro.get("/v1/acoes", { query: { limit: "10" } });
    // @ts-expect-error /v1/resolve takes no cursor: no pages
    lastro.pages("/v1/resolve", { query: { cnpj: "00000000000000" } });

    const stocks = await lastro.get("/v1/acoes");
    const ticker: string | undefined = stocks.data[0]?.ticker;
    // @ts-expect-error no such field
    void stocks.data[0]?.tickr;
    // @ts-expect-error the name may be null
    const name: string = stocks.data[0]!.name;
    const remaining: number | undefined = stocks.credits?.remaining;
    const etag: string | null = stocks.etag;
    void [ticker, name, remaining, etag];

    // A conditional call may answer NotModified, which has no body: check notModified first.
    const maybe = await lastro.get("/v1/acoes", { ifNoneMatch: etag ?? "*" });
    // @ts-expect-error data is there only once notModified is ruled out
    void maybe.data;
    if (maybe.notModified) {
        const unchanged: string = maybe.etag;
        void unchanged;
    } else {
        void maybe.data[0]?.ticker;
    }
    const cachedEtag = etag ?? undefined; // string | undefined: may be a conditional call
    const perhaps = await lastro.get("/v1/acoes", { query: { limit: 5 }, ifNoneMatch: cachedEtag });
    // @ts-expect-error NotModified has no meta
    void perhaps.meta;
    const csvMaybe = await lastro.getCsv("/v1/acoes", { ifNoneMatch: "*" });
    // @ts-expect-error NotModified has no text
    void csvMaybe.text;

    // CSV only where the data is rows (format offers csv)
    const csv = await lastro.getCsv("/v1/acoes", { query: { limit: 5 } });
    const text: string = csv.text;
    const next: string | null = csv.next;
    void [text, next, csv.rowCount, csv.etag];
    // @ts-expect-error the snapshot is one object: its format is json only
    await lastro.getCsv("/v1/classes/{class_id}/snapshot", { path: { class_id: "id" } });
    // @ts-expect-error nor can get() ask for it as CSV
    await lastro.get("/v1/classes/{class_id}/snapshot", { path: { class_id: "id" }, query: { format: "csv" } });
    // @ts-expect-error /health has no format
    await lastro.getCsv("/health", {});
    // @ts-expect-error class_id is still required
    await lastro.getCsv("/v1/classes/{class_id}/cotas");
    // @ts-expect-error /v1/industria has CSV but no cursor: no csvPages
    lastro.csvPages("/v1/industria", { query: { indicador: "resumo" } });
    // @ts-expect-error pages of CSV take no ifNoneMatch
    lastro.csvPages("/v1/acoes", { ifNoneMatch: "*" });
}
