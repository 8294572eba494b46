/**
 * A malformed chunked body (cut inside a chunk), sent over a real socket to the Deno server, is answered as a bad
 * request in every family's envelope (it once surfaced as a 500).
 */
import assert from "node:assert/strict";
import { testEnv } from "../harness.ts";

/** Sends raw HTTP/1.1 bytes and returns the status and parsed JSON body of the answer. */
async function rawExchange(port: number, text: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(text));
  await conn.closeWrite(); // the body ends inside a chunk
  let answer = "";
  const buf = new Uint8Array(65536);
  for (;;) {
    const n = await conn.read(buf).catch(() => null);
    if (n === null) break;
    answer += new TextDecoder().decode(buf.subarray(0, n));
    const [head, rest = ""] = answer.split("\r\n\r\n");
    const length = /content-length: (\d+)/i.exec(head);
    if (length && new TextEncoder().encode(rest).length >= Number(length[1])) break;
  }
  conn.close();
  const [head, body] = answer.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), body: JSON.parse(body) };
}

const message = "request body could not be read";
// deno-lint-ignore no-explicit-any
const cases: [string, number, any][] = [
  ["/v2/auth-token", 400, { code: 1000, message }],
  ["/service/v1/nft/mint", 400, { code: 1000, message }],
  // Chat and text detection answer HTTP 200 with their bad-request code "500".
  ["/chat/api/v1/send-chat-log", 200, { result: { result_code: "500", result_msg: message } }],
  [
    "/cads2/send-text-data",
    200,
    { result: { result_code: "500", result_text: "Incorrect request", result_array: [] } },
  ],
  ["/api/cpa", 400, { result_code: 1, result_msg: message, result_message: message }],
  ["/items/v1/requests", 400, { code: 4000, message }],
  ["/push/campaigns", 400, { error: { reason: message } }],
  // OTP's bad request is 422 VALIDATION_FAIL.
  ["/otp/sms", 422, { error: { code: "VALIDATION_FAIL", reason: message } }],
  ["/admin/v1/games", 400, { error: { code: "BAD_REQUEST", message } }],
];

Deno.test("a malformed chunked body is a bad request in every family's envelope", async () => {
  const { app } = await testEnv();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  try {
    for (const [path, status, body] of cases) {
      const r = await rawExchange(
        server.addr.port,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Transfer-Encoding: chunked\r\n\r\n10\r\n{"a":`,
      );
      assert.equal(r.status, status, `${path}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(r.body, body, path);
    }
  } finally {
    await server.shutdown();
  }
});
