/** Shared checks of the admin read tests: secrets never shown, pages walked by cursor. */
import assert from "node:assert/strict";
import { admin } from "../../harness.ts";

/** Asserts that none of the secrets occurs anywhere in a response body. */
export function assertNoSecret(body: unknown, secrets: string[]) {
  const text = JSON.stringify(body);
  for (const secret of secrets) {
    assert.ok(secret.length >= 8, "a secret to look for is long enough to be meaningful");
    assert.ok(!text.includes(secret), `response must not contain a secret: ${text.slice(0, 300)}`);
  }
}

/** Walks every page of an admin list with the given page size; returns all items in order. */
// deno-lint-ignore no-explicit-any
export async function walkPages(path: string, limit: number): Promise<any[]> {
  const items = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const url = `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const res = await admin("GET", url);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.items.length <= limit);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    if (!cursor) return items;
  }
  throw new Error("more than 100 pages");
}

/** Asserts the admin 404 envelope with the code. */
// deno-lint-ignore no-explicit-any
export function assertNotFound(res: { status: number; body: any }, code: string) {
  assert.equal(res.status, 404, JSON.stringify(res.body));
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, "string");
}
