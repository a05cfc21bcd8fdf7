// What the test files share: the environment, the typed error of a failed call, the credit
// headers, and an RFC 4180 reader for the CSV answers.
import assert from "node:assert/strict";
import { type Credits, LastroError } from "../src/index.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function environment(name: string): string {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
}

export async function rejection(call: Promise<unknown>): Promise<LastroError> {
    try {
        await call;
    } catch (error) {
        assert.ok(error instanceof LastroError, `not a LastroError: ${String(error)}`);
        return error;
    }
    assert.fail("the call succeeded");
}

export function assertCredits(credits: Credits | null): Credits {
    assert.ok(credits, "no X-Credits-* headers");
    for (const value of Object.values(credits)) assert.ok(Number.isInteger(value));
    return credits;
}

/**
 * The records of a CSV text (RFC 4180): fields split on commas, a quoted field may hold commas,
 * line ends and doubled quotes. Records end with CRLF (LF accepted); the last may not.
 */
export function parseCsv(text: string): string[][] {
    const records: string[][] = [];
    let record: string[] = [];
    let field = "";
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (quoted) {
            if (c !== '"') field += c;
            else if (text[i + 1] === '"') field += text[++i];
            else quoted = false;
        } else if (c === '"') {
            quoted = true;
        } else if (c === ",") {
            record.push(field);
            field = "";
        } else if (c === "\n" || c === "\r") {
            if (c === "\r" && text[i + 1] === "\n") i++;
            record.push(field);
            records.push(record);
            record = [];
            field = "";
        } else {
            field += c;
        }
    }
    assert.ok(!quoted, "a quoted field never closes");
    if (field !== "" || record.length > 0) records.push([...record, field]);
    return records;
}
