/** JSON over real HTTP, for tests that talk to a running server (main.ts, wrangler dev). */

/** Sends a request (JSON body when given) and parses the JSON answer (null when empty). */
export async function fetchJson(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, {
    method,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
