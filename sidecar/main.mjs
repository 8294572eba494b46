#!/usr/bin/env node
// Item-socket sidecar (plain Node, no dependencies).
//
// bridge mode (default): an HTTP endpoint, bound to 127.0.0.1, that the platform calls with
//   POST /v1/exchange  Authorization: Bearer <SIDECAR_TOKEN>
//   {"host","port","apihash","body","timeoutMs"}
// It writes the request packet to host:port exactly as the spec frames it, reads the response
// packet (partial reads, early close, timeout and maximum size handled) and answers
//   200 {"ok":true,"response":"<game server JSON text>"}  or  502/504 {"ok":false,"reason","message"}
//
// receiver mode: a TCP server for a game server that only speaks HTTP: each request packet is
// forwarded as POST <forward URL> with its Apihash header and the JSON reply is framed back.
//
//   node sidecar/main.mjs bridge   [--host 127.0.0.1] [--port 8790]     (SIDECAR_TOKEN required)
//   node sidecar/main.mjs receiver --forward http://127.0.0.1:9080/items [--host 127.0.0.1] [--port 20080]
import http from "node:http";
import net from "node:net";
import { createHash, timingSafeEqual } from "node:crypto";
import {
  decodeRequestPacket,
  encodeRequestPacket,
  encodeResponsePacket,
  PacketAccumulator,
  PacketError,
} from "./frame.mjs";

const MAX_PACKET_BYTES = Number(
  process.env.SIDECAR_MAX_PACKET_BYTES ?? 1_048_576,
);
const MAX_TIMEOUT_MS = 120_000;

class ExchangeError extends Error {
  constructor(message, reason) {
    super(message);
    this.reason = reason; // timeout | connect | closed | too_large | bad_packet
  }
}

/** One TCP exchange: connect, write the request packet, read one response packet. */
export function exchange(
  { host, port, apihash, body, timeoutMs },
  maxBytes = MAX_PACKET_BYTES,
) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const acc = new PacketAccumulator(maxBytes);
    let connected = false;
    let done = false;
    const finish = (err, value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    const timer = setTimeout(
      () => finish(new ExchangeError(`timed out after ${timeoutMs} ms`, "timeout")),
      timeoutMs,
    );
    socket.on("connect", () => {
      connected = true;
      socket.write(encodeRequestPacket(apihash, Buffer.from(body, "utf8")));
    });
    socket.on("data", (chunk) => {
      try {
        const packet = acc.push(chunk);
        if (packet) finish(null, new TextDecoder().decode(packet.subarray(4)));
      } catch (err) {
        finish(
          new ExchangeError(
            err.message,
            err instanceof PacketError ? err.reason : "bad_packet",
          ),
        );
      }
    });
    socket.on("error", (err) => {
      finish(new ExchangeError(err.message, connected ? "closed" : "connect"));
    });
    socket.on("close", () => {
      finish(
        new ExchangeError(
          `peer closed after ${acc.size} bytes of the response`,
          "closed",
        ),
      );
    });
  });
}

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (c) => {
      size += c.length;
      if (size > limit) {
        reject(new Error("request too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function digest(text) {
  return createHash("sha256").update(text).digest();
}

function send(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** Starts the bridge's HTTP server; resolves with the server once listening. */
export function startBridge(
  { host = "127.0.0.1", port = 8790, token, maxBytes = MAX_PACKET_BYTES },
) {
  if (!token) {
    throw new Error(
      "SIDECAR_TOKEN is required (the same value as the platform's SIDECAR_TOKEN)",
    );
  }
  const expected = digest(`Bearer ${token}`);
  const server = http.createServer(async (req, res) => {
    try {
      if (req.method === "GET" && req.url === "/healthz") {
        return send(res, 200, { ok: true });
      }
      if (req.method !== "POST" || req.url !== "/v1/exchange") {
        return send(res, 404, {
          ok: false,
          reason: "not_found",
          message: "no such route",
        });
      }
      const presented = digest(req.headers.authorization ?? "");
      if (!timingSafeEqual(presented, expected)) {
        return send(res, 401, {
          ok: false,
          reason: "unauthorized",
          message: "sidecar token invalid",
        });
      }
      let input;
      try {
        input = JSON.parse(
          (await readBody(req, maxBytes + 65_536)).toString("utf8"),
        );
      } catch {
        return send(res, 400, {
          ok: false,
          reason: "bad_request",
          message: "body must be JSON",
        });
      }
      const { host: h, port: p, apihash, body, timeoutMs } = input ?? {};
      if (
        typeof h !== "string" || !h || !Number.isInteger(p) || p < 1 ||
        p > 65535 ||
        typeof apihash !== "string" || typeof body !== "string" ||
        !Number.isInteger(timeoutMs) || timeoutMs < 1
      ) {
        return send(res, 400, {
          ok: false,
          reason: "bad_request",
          message: "host, port, apihash, body and timeoutMs are required",
        });
      }
      if (Buffer.byteLength(body) + 12 + 64 + apihash.length > maxBytes) {
        return send(res, 400, {
          ok: false,
          reason: "too_large",
          message: "request packet too large",
        });
      }
      try {
        const response = await exchange(
          {
            host: h,
            port: p,
            apihash,
            body,
            timeoutMs: Math.min(timeoutMs, MAX_TIMEOUT_MS),
          },
          maxBytes,
        );
        send(res, 200, { ok: true, response });
      } catch (err) {
        send(res, err.reason === "timeout" ? 504 : 502, {
          ok: false,
          reason: err.reason ?? "closed",
          message: err.message,
        });
      }
    } catch (err) {
      send(res, 500, {
        ok: false,
        reason: "internal",
        message: String(err?.message ?? err),
      });
    }
  });
  // Keep idle client connections longer than callers pool them, so a reused connection is not
  // closed under a request in flight (Node's 5 s default races with the platform's pool).
  server.keepAliveTimeout = 75_000;
  server.headersTimeout = 80_000;
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

/** Starts the TCP receiver that forwards each request packet to an HTTP receiver. */
export function startReceiver(
  {
    host = "127.0.0.1",
    port = 20080,
    forward,
    timeoutMs = 30_000,
    maxBytes = MAX_PACKET_BYTES,
  },
) {
  if (!forward) throw new Error("--forward <http url> is required");
  const server = net.createServer((socket) => {
    const acc = new PacketAccumulator(maxBytes, 12);
    let handled = false;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on("error", () => {});
    socket.on("close", () => clearTimeout(timer));
    socket.on("data", async (chunk) => {
      if (handled) return;
      let packet;
      try {
        packet = acc.push(chunk);
      } catch {
        handled = true;
        return socket.destroy();
      }
      if (!packet) return;
      handled = true;
      let reply;
      try {
        const { apihash, body } = decodeRequestPacket(packet);
        const res = await fetch(forward, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(apihash ? { Apihash: apihash } : {}),
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        reply = Buffer.from(await res.text(), "utf8");
      } catch {
        return socket.destroy();
      }
      socket.end(encodeResponsePacket(reply));
    });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const isMain = process.argv[1] &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  // A configuration mistake is one clear line on stderr and exit code 2, not a stack trace.
  process.on("uncaughtException", (err) => {
    console.error(`item sidecar: ${err.message}`);
    process.exit(2);
  });
  const mode = process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "bridge";
  const host = flag("host", process.env.SIDECAR_HOST ?? "127.0.0.1");
  if (mode === "bridge") {
    const port = Number(flag("port", process.env.SIDECAR_PORT ?? 8790));
    const server = await startBridge({
      host,
      port,
      token: process.env.SIDECAR_TOKEN,
    });
    const addr = server.address();
    console.log(`item sidecar bridge on http://${addr.address}:${addr.port}`);
  } else if (mode === "receiver") {
    const port = Number(flag("port", 20080));
    const server = await startReceiver({
      host,
      port,
      forward: flag("forward", process.env.RECEIVER_FORWARD_URL),
    });
    const addr = server.address();
    console.log(`item sidecar receiver on tcp ${addr.address}:${addr.port}`);
  } else {
    console.error(`unknown mode ${mode}: use bridge or receiver`);
    process.exit(2);
  }
}
