// The Lastro client: a thin layer over openapi-fetch and the types that openapi-typescript
// generated from the server's OpenAPI document (schema.ts, rewritten by generate.sh).
// It adds what every Lastro call shares: the API key, the credit and rate-limit headers,
// problems (RFC 9457) raised as LastroError, the walk over cursor pages, conditional requests
// (ETag, If-None-Match -> 304) and CSV. gzip needs nothing here: Node's fetch asks for it and
// inflates it.
import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };

/** A problem record (application/problem+json), as the OpenAPI document describes it. */
export type Problem = components["schemas"]["Problem"];

/** Every path that answers GET: all of them, today. */
export type GetPath = {
    [P in keyof paths]: paths[P] extends { get: object } ? P : never;
}[keyof paths];

type Operation<P extends GetPath> = paths[P]["get"];
type ParametersOf<P extends GetPath> = Operation<P>["parameters"];

// Pick<T, K>, keeping which keys are optional even while P is generic (Pick's own mapped type
// loses that when TypeScript resolves OptionsOf ahead of P).
type Only<T, Keys> = { [K in keyof T as K extends Keys ? K : never]: T[K] };

/** The arguments of a call: its path and query parameters, named as in the document. */
export type CallOptions<P extends GetPath> = Only<ParametersOf<P>, "path" | "query"> & {
    /** More request headers (for If-None-Match use ifNoneMatch, for CSV getCsv: typed answers). */
    headers?: Record<string, string>;
    signal?: AbortSignal;
};

/** The options of get() and getCsv(): a call's, and ifNoneMatch for a conditional request. */
export type ConditionalOptions<P extends GetPath> = CallOptions<P> & {
    /**
     * The ETag of an earlier answer (or several, comma-separated, or "*"): sent as If-None-Match,
     * so that an unchanged answer comes back as NotModified (304: no body, nothing charged).
     */
    ifNoneMatch?: string;
};

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type OptionalWhenNothingRequired<T> = [RequiredKeys<T>] extends [never] ? T | undefined : T;
/** CallOptions, or undefined when the operation has no required parameter. */
export type OptionsOf<P extends GetPath> = OptionalWhenNothingRequired<CallOptions<P>>;
/** ConditionalOptions, or undefined when the operation has no required parameter. */
export type ConditionalOptionsOf<P extends GetPath> = OptionalWhenNothingRequired<ConditionalOptions<P>>;
// The options argument may be left out only when nothing in it is required. The methods take
// it as a type parameter of its own (O extends OptionsOf<P>), as openapi-fetch does: a rest
// parameter typed from P alone would be counted against every path, making it required.
type OptionsArgument<O> = RequiredKeys<O> extends never ? [options?: O] : [options: O];
// What O is when the options are left out (else TypeScript takes the whole constraint, with
// its ifNoneMatch): the plain options, still required where the operation requires some.
type NoOptions<P extends GetPath> = CallOptions<P>;

type SuccessContent<P extends GetPath> = Operation<P>["responses"][200]["content"];
/** The body of a 200 answer: the JSON type of the document, or text (the HTML of /docs). */
export type Body<P extends GetPath> =
    SuccessContent<P> extends { "application/json": infer B } ? B : string;

/** The type of one query parameter of a path's operation; never when it has no such parameter. */
type QueryParameter<P extends GetPath, Name extends string> =
    NonNullable<ParametersOf<P>["query"]> extends infer Query
        ? [Query] extends [never] // no query at all (keyof never would be every key)
            ? never
            : Name extends keyof Query
              ? Query[Name]
              : never
        : never;

/** The paths that take `cursor=` (meta.pagination.next_cursor of the previous page). */
export type CursorPath = {
    [P in GetPath]: [QueryParameter<P, "cursor">] extends [never] ? never : P;
}[GetPath];
/** One row of a cursor-paginated answer's data. */
export type Item<P extends GetPath> = Body<P> extends { data: (infer I)[] } ? I : never;

/** The paths whose `format` parameter offers csv: those whose data is rows. */
export type CsvPath = {
    [P in GetPath]: "csv" extends QueryParameter<P, "format"> ? P : never;
}[GetPath];

/** The X-Credits-* headers: the price of the call and the key's monthly allowance. */
export interface Credits {
    cost: number;
    charged: number;
    remaining: number;
    limit: number;
    /** Unix time (UTC) when the allowance resets. */
    reset: number;
}

/** The X-RateLimit-* headers: the key's calls per minute. */
export interface RateLimit {
    limit: number;
    remaining: number;
    /** Unix time when the current minute window ends. */
    reset: number;
}

/** What every answer's headers say. */
export interface AnswerHeaders {
    status: number;
    headers: Headers;
    requestId: string | null;
    /** The answer's ETag, for a later ifNoneMatch (null outside /v1). */
    etag: string | null;
    /** Null on the operations outside /v1, which cost nothing. */
    credits: Credits | null;
    rateLimit: RateLimit | null;
}

/** A successful answer: its typed body (with data and meta at hand) and what its headers say. */
export type Answer<B> = AnswerHeaders & {
    notModified: false;
    body: B;
} & (B extends { data: infer D; meta: infer M } ? { data: D; meta: M } : unknown);

/** The 304 of a conditional request: the answer named by ifNoneMatch is unchanged. Free. */
export interface NotModified extends AnswerHeaders {
    notModified: true;
    status: 304;
    etag: string;
}

/** A page of CSV (RFC 4180, a header row first); the JSON's meta comes in headers. */
export interface CsvAnswer extends AnswerHeaders {
    notModified: false;
    text: string;
    /** X-Row-Count: the records after the header row. */
    rowCount: number;
    /** X-Data-Release (meta.data_release), when the operation has one. */
    dataRelease: string | null;
    /** The URL of the next page (Link: <URL>; rel="next"), null on the last one. */
    next: string | null;
}

/**
 * What a call may answer: with ifNoneMatch among its options (O), NotModified too, which
 * TypeScript makes the caller rule out (`if (answer.notModified)`) before reading the body.
 */
export type MaybeNotModified<O, A> = O extends { ifNoneMatch?: infer E }
    ? "ifNoneMatch" extends keyof O
        ? [E] extends [undefined]
            ? A
            : A | NotModified
        : A
    : A;

/** An answer other than 2xx: the problem's fields and the credit headers that came with it. */
export class LastroError extends Error {
    readonly status: number;
    readonly title: string;
    readonly detail: string;
    readonly type: string | null;
    readonly instance: string | null;
    readonly requestId: string | null;
    /** The offending parameter, when the problem names one. */
    readonly parameter: string | null;
    readonly credits: Credits | null;
    readonly rateLimit: RateLimit | null;
    /** Seconds to wait (Retry-After), on 429 and 503. */
    readonly retryAfter: number | null;
    readonly headers: Headers;
    /** The body as answered: a problem object, or text when the answer was not JSON. */
    readonly body: unknown;

    constructor(response: Response, body: unknown) {
        const problem: Partial<Problem> = isObject(body) ? (body as Partial<Problem>) : {};
        const title = typeof problem.title === "string" ? problem.title : response.statusText;
        const detail =
            typeof problem.detail === "string" ? problem.detail : typeof body === "string" ? body : "";
        super(`${response.status} ${title}${detail ? `: ${detail}` : ""}`);
        this.name = "LastroError";
        this.status = response.status;
        this.title = title;
        this.detail = detail;
        this.type = problem.type ?? null;
        this.instance = problem.instance ?? null;
        this.requestId = problem.request_id ?? response.headers.get("X-Request-Id");
        this.parameter = problem.parameter ?? null;
        this.credits = readCredits(response.headers);
        this.rateLimit = readRateLimit(response.headers);
        this.retryAfter = readInteger(response.headers, "Retry-After");
        this.headers = response.headers;
        this.body = body;
    }
}

export interface ClientOptions {
    /** Where lastrod listens, for example http://127.0.0.1:8080 */
    baseUrl: string;
    /** Sent as Authorization: Bearer KEY; /health, /pricing, /openapi.json and /docs need none. */
    apiKey?: string;
    /** Another fetch (tests, proxies); the global one by default. */
    fetch?: (request: Request) => Promise<Response>;
}

export class LastroClient {
    /** The openapi-fetch client underneath, for what this class does not cover (middleware). */
    readonly raw: Client<paths>;

    constructor(options: ClientOptions) {
        this.raw = createClient<paths>({
            baseUrl: options.baseUrl.replace(/\/+$/, ""),
            headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
            ...(options.fetch ? { fetch: options.fetch } : {}),
        });
    }

    /**
     * GET one path; throws LastroError unless the answer is 2xx, or a 304 to ifNoneMatch
     * (answered as NotModified).
     */
    async get<P extends GetPath, O extends ConditionalOptionsOf<P> = NoOptions<P>>(
        path: P,
        ...[options]: OptionsArgument<O>
    ): Promise<MaybeNotModified<O, Answer<Body<P>>>> {
        const { response, text } = await this.send(path, options);
        if (response.status === 304) return notModified(response) as MaybeNotModified<O, Answer<Body<P>>>;
        return jsonAnswer(response, text) as MaybeNotModified<O, Answer<Body<P>>>;
    }

    /**
     * One page of an operation as CSV (format=csv); only the operations whose data is rows
     * offer it. Takes ifNoneMatch as get() does.
     */
    async getCsv<P extends CsvPath, O extends ConditionalOptionsOf<P> = NoOptions<P>>(
        path: P,
        ...[options]: OptionsArgument<O>
    ): Promise<MaybeNotModified<O, CsvAnswer>> {
        const asCsv = { ...options, query: { ...options?.query, format: "csv" } };
        const { response, text } = await this.send(path, asCsv as CallOptions<P>);
        if (response.status === 304) return notModified(response) as MaybeNotModified<O, CsvAnswer>;
        return csvAnswer(response, text) as MaybeNotModified<O, CsvAnswer>;
    }

    /**
     * Every CSV page of a cursor-paginated operation, following Link rel="next" to the last.
     * The next page is asked for through this client with the cursor of that link (the rest
     * of the link is this call's own query): the link's host is the server's configured
     * base_url, which need not be the address this client reaches it at.
     */
    async *csvPages<P extends CsvPath & CursorPath, O extends OptionsOf<P>>(
        path: P,
        ...[options]: OptionsArgument<O>
    ): AsyncGenerator<CsvAnswer> {
        const first: CallOptions<P> | undefined = options;
        let page: CsvAnswer = await this.getCsv(path, first as never);
        for (;;) {
            yield page;
            if (page.next === null) return;
            const cursor = new URL(page.next).searchParams.get("cursor");
            if (!cursor) throw new Error(`Link rel="next" without a cursor: ${page.next}`);
            page = await this.getCsv(path, { ...first, query: { ...first?.query, cursor } } as never);
        }
    }

    /** GET one path and keep the body as text (the HTML of /docs). */
    async getText<P extends GetPath, O extends OptionsOf<P>>(
        path: P,
        ...[options]: OptionsArgument<O>
    ): Promise<Answer<string>> {
        const { response, text } = await this.send(path, options);
        return answer(response, text);
    }

    /** Every page of a cursor-paginated operation, from the one the options ask for to the last. */
    async *pages<P extends CursorPath, O extends OptionsOf<P>>(
        path: P,
        ...[options]: OptionsArgument<O>
    ): AsyncGenerator<Answer<Body<P>>> {
        const first: CallOptions<P> | undefined = options;
        let page: Answer<Body<P>> = await this.get(path, first as never);
        for (;;) {
            yield page;
            const cursor = nextCursor(page.body);
            if (!cursor) return;
            const next = { ...first, query: { ...first?.query, cursor } };
            page = await this.get(path, next as never);
        }
    }

    /** Every row of every page (see pages). */
    async *items<P extends CursorPath, O extends OptionsOf<P>>(
        path: P,
        ...[options]: OptionsArgument<O>
    ): AsyncGenerator<Item<P>> {
        const first: CallOptions<P> | undefined = options;
        for await (const page of this.pages(path, first as never)) {
            yield* (page.body as { data: Item<P>[] }).data;
        }
    }

    private async send<P extends GetPath>(path: P, options: ConditionalOptions<P> | undefined) {
        const { path: pathParams, query, headers, signal, ifNoneMatch } = (options ?? {}) as {
            path?: object;
            query?: object;
            headers?: Record<string, string>;
            signal?: AbortSignal;
            ifNoneMatch?: string;
        };
        const conditional = ifNoneMatch !== undefined;
        const init = {
            params: { path: pathParams, query },
            headers: conditional ? { ...headers, "If-None-Match": ifNoneMatch } : headers,
            signal,
            parseAs: "text",
        };
        // openapi-fetch types each call against its own path; here the path is generic, so
        // the arguments were checked against OptionsOf<P> by the public methods.
        const { data, error, response } = await this.raw.GET(path as never, init as never);
        // A 304 is an answer only to ifNoneMatch: the return types promise a body otherwise
        // (an If-None-Match among the headers gets a 304 raised as a LastroError).
        if (!response.ok && !(response.status === 304 && conditional)) throw new LastroError(response, error);
        return { response, text: (data ?? "") as string };
    }
}

/** A JSON body parsed (text otherwise: the HTML of /docs). */
function jsonAnswer(response: Response, text: string): Answer<unknown> {
    const json = /\bjson\b/.test(response.headers.get("Content-Type") ?? "") && text !== "";
    return answer(response, json ? JSON.parse(text) : text);
}

function answer<B>(response: Response, body: B): Answer<B> {
    const envelope = isObject(body) && "data" in body && "meta" in body ? { data: body.data, meta: body.meta } : {};
    return { ...answerHeaders(response), notModified: false, body, ...envelope } as Answer<B>;
}

function notModified(response: Response): NotModified {
    const etag = response.headers.get("ETag") ?? "";
    return { ...answerHeaders(response), notModified: true, status: 304, etag };
}

function csvAnswer(response: Response, text: string): CsvAnswer {
    const type = response.headers.get("Content-Type") ?? "";
    // format=csv is in the query, so anything else is a server that does not offer CSV here.
    if (!/^text\/csv\b/.test(type)) throw new Error(`asked for CSV, answered ${type || "no Content-Type"}`);
    return {
        ...answerHeaders(response),
        notModified: false,
        text,
        rowCount: readInteger(response.headers, "X-Row-Count") ?? 0,
        dataRelease: response.headers.get("X-Data-Release"),
        next: nextLink(response.headers.get("Link")),
    };
}

function answerHeaders(response: Response): AnswerHeaders {
    return {
        status: response.status,
        headers: response.headers,
        requestId: response.headers.get("X-Request-Id"),
        etag: response.headers.get("ETag"),
        credits: readCredits(response.headers),
        rateLimit: readRateLimit(response.headers),
    };
}

/** The URL of Link's rel="next" (RFC 8288: `<URL>; rel="next"`, links separated by commas). */
function nextLink(link: string | null): string | null {
    for (const [, url, params] of (link ?? "").matchAll(/<([^>]*)>([^,]*)/g)) {
        const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(params ?? "");
        const relations = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
        if (url !== undefined && relations.includes("next")) return url;
    }
    return null;
}

function nextCursor(body: unknown): string | null {
    if (!isObject(body) || !isObject(body.meta) || !isObject(body.meta.pagination)) return null;
    const cursor = body.meta.pagination.next_cursor;
    return typeof cursor === "string" && cursor !== "" ? cursor : null;
}

function readCredits(headers: Headers): Credits | null {
    const cost = readInteger(headers, "X-Credits-Cost");
    if (cost === null) return null;
    return {
        cost,
        charged: readInteger(headers, "X-Credits-Charged") ?? 0,
        remaining: readInteger(headers, "X-Credits-Remaining") ?? 0,
        limit: readInteger(headers, "X-Credits-Limit") ?? 0,
        reset: readInteger(headers, "X-Credits-Reset") ?? 0,
    };
}

function readRateLimit(headers: Headers): RateLimit | null {
    const limit = readInteger(headers, "X-RateLimit-Limit");
    if (limit === null) return null;
    return {
        limit,
        remaining: readInteger(headers, "X-RateLimit-Remaining") ?? 0,
        reset: readInteger(headers, "X-RateLimit-Reset") ?? 0,
    };
}

function readInteger(headers: Headers, name: string): number | null {
    const value = headers.get(name);
    return value !== null && /^-?\d+$/.test(value.trim()) ? Number(value) : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
