/**
 * The Node sidecar as a real process: bridge mode (HTTP -> framed TCP exchange) against the
 * reference game server and against raw TCP peers that split, stall, truncate or oversize their
 * answers; receiver mode (framed TCP -> HTTP receiver) in front of the reference game server.
 */
import assert from "node:assert/strict";
import { createSidecarSocket } from "../../lib/items/sidecar_client.ts";
import { createDenoItemSocket, readPacket, writeAll } from "../../lib/items/socket_deno.ts";
import { SocketFailure } from "../../lib/items/socket.ts";
import {
  decodeRequestPacket,
  encodeRequestPacket,
  encodeResponsePacket,
  PacketAccumulator,
} from "../../lib/items/tcp_frame.ts";
import { apihashHex, asciiJson } from "../../lib/crypto/apihash.ts";
import { startGameServer } from "../../dev/game_server.ts";
import { testEnv } from "../harness.ts";
import { itemFixture } from "../lib/items/fixture.ts";
import { dispatchDueItems } from "../../lib/items/dispatcher.ts";

const TOKEN = "sidecar-test-token-0123456789";
const enc = new TextEncoder();

async function spawnSidecar(args: string[]) {
  const child = new Deno.Command("node", {
    args: ["sidecar/main.mjs", ...args],
    env: { SIDECAR_TOKEN: TOKEN },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("sidecar exited");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  child.stdout.cancel();
  const m = /(?:http:\/\/|tcp )([\d.]+):(\d+)/.exec(text)!;
  return {
    host: m[1],
    port: Number(m[2]),
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** A raw TCP peer: reads one request packet, hands it to `answer`, which writes what it likes. */
function rawPeer(answer: (conn: Deno.Conn, packet: Uint8Array) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const packets: Uint8Array[] = [];
  (async () => {
    for await (const conn of listener) {
      (async () => {
        try {
          const packet = await readPacket(conn, new PacketAccumulator(1 << 20, 12));
          if (!packet) return;
          packets.push(packet.slice());
          await answer(conn, packet);
        } catch {
          /* client went away */
        } finally {
          try {
            conn.close();
          } catch { /* closed */ }
        }
      })();
    }
  })().catch(() => {});
  return { port: (listener.addr as Deno.NetAddr).port, packets, close: () => listener.close() };
}

for (const kind of ["sidecar", "direct"] as const) {
  Deno.test(`item socket (${kind}): frames the packet exactly and survives every misbehaving peer`, async () => {
    const sidecar = kind === "sidecar" ? await spawnSidecar(["bridge", "--port", "0"]) : null;
    const socket = sidecar
      ? createSidecarSocket({ url: `http://${sidecar.host}:${sidecar.port}`, token: TOKEN })
      : createDenoItemSocket();
    const body = asciiJson({ transactionId: "t", userMessage: "안녕" });
    const apihash = await apihashHex("w", body);
    const reply = enc.encode('{"code":20000,"message":"성공"}');
    const peers: { close(): void }[] = [];
    try {
      // Byte-by-byte answer: partial reads are reassembled.
      const slowBytes = rawPeer(async (conn) => {
        const packet = encodeResponsePacket(reply);
        for (const b of packet) {
          await writeAll(conn, new Uint8Array([b]));
          await new Promise((r) => setTimeout(r, 1));
        }
      });
      peers.push(slowBytes);
      const text = await socket.exchange({
        host: "127.0.0.1",
        port: slowBytes.port,
        apihash,
        body,
        timeoutMs: 5_000,
      });
      assert.deepEqual(JSON.parse(text), { code: 20000, message: "성공" });
      assert.deepEqual(slowBytes.packets[0], encodeRequestPacket(apihash, enc.encode(body)));
      assert.deepEqual(decodeRequestPacket(slowBytes.packets[0]).apihash, apihash);

      const failures: [string, (conn: Deno.Conn) => Promise<void>, number][] = [
        ["closed", async (conn) => {
          await writeAll(conn, encodeResponsePacket(reply).subarray(0, 10));
        }, 5_000],
        ["timeout", () => new Promise((r) => setTimeout(r, 1_500)), 300],
        ["too_large", async (conn) => {
          await writeAll(conn, new Uint8Array([0x7f, 0xff, 0xff, 0xff, 0x7b]));
        }, 5_000],
      ];
      for (const [reason, answer, timeoutMs] of failures) {
        const peer = rawPeer(answer);
        peers.push(peer);
        await assert.rejects(
          socket.exchange({ host: "127.0.0.1", port: peer.port, apihash, body, timeoutMs }),
          (e) => {
            assert.ok(e instanceof SocketFailure, String(e));
            assert.equal(e.reason, reason, `${reason}: ${e.message}`);
            return true;
          },
        );
      }
      // Port 1 on loopback has no listener; a just-closed ephemeral port can be reused at once
      // by another socket on this busy machine and answer with a reset instead of a refusal.
      await assert.rejects(
        socket.exchange({ host: "127.0.0.1", port: 1, apihash, body, timeoutMs: 2_000 }),
        (e) => e instanceof SocketFailure && e.reason === "connect",
      );

      if (!sidecar) return;
      const wrong = await fetch(`http://${sidecar.host}:${sidecar.port}/v1/exchange`, {
        method: "POST",
        headers: { authorization: "Bearer nope", "content-type": "application/json" },
        body: JSON.stringify({ host: "127.0.0.1", port: 1, apihash, body, timeoutMs: 100 }),
      });
      assert.equal(wrong.status, 401);
      assert.equal((await wrong.json()).reason, "unauthorized");
      const badInput = await fetch(`http://${sidecar.host}:${sidecar.port}/v1/exchange`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ host: "127.0.0.1" }),
      });
      assert.equal(badInput.status, 400);
      await badInput.body?.cancel();
    } finally {
      for (const p of peers) {
        try {
          p.close();
        } catch { /* closed */ }
      }
      await sidecar?.stop();
    }
  });
}

Deno.test("sidecar bridge: the dispatcher delivers over TCP through it (the Workers path)", async () => {
  const { services } = await testEnv();
  const sidecar = await spawnSidecar(["bridge", "--port", "0"]);
  const f = await itemFixture("tcp");
  try {
    const viaSidecar = {
      ...services,
      itemSocket: createSidecarSocket({
        url: `http://${sidecar.host}:${sidecar.port}`,
        token: TOKEN,
      }),
    };
    await f.server.stop(); // the registration's own dispatch must not deliver it first
    const body = f.body({ id: "sidecar-user", userMessage: "사이드카" });
    await f.register(body);
    await services.idle();
    await f.server.start();
    const { clock } = await testEnv();
    clock.advance(services.config.ITEM_RETRY_MAX_MS + 1);
    await dispatchDueItems(viaSidecar, { gameIndex: f.tenant.gameIndex });
    const s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "DELIVERED");
    assert.equal(f.server.raw.at(-1)!.via, "tcp");
    assert.deepEqual(f.server.store.itemsOf("vid", "sidecar-user"), { gold: 100 });
  } finally {
    await f.close();
    await sidecar.stop();
  }
});

Deno.test("sidecar receiver: a TCP front for an HTTP-only game server", async () => {
  const game = await startGameServer({ vendorWord: "rw", httpPort: 0, tcpPort: null });
  const receiver = await spawnSidecar(["receiver", "--port", "0", "--forward", game.url]);
  try {
    const socket = createDenoItemSocket();
    const body = asciiJson({
      transactionId: "r-1",
      idCategory: "vid",
      id: "tcp-front",
      detail: [{ action: "send", assetCode: "potion", amount: 2, method: "" }],
      reason: "e",
      serverId: "s",
      gameIndex: 1,
    });
    const exchange = async (hash: string) =>
      JSON.parse(
        await socket.exchange({
          host: receiver.host,
          port: receiver.port,
          apihash: hash,
          body,
          timeoutMs: 5_000,
        }),
      );
    assert.equal((await exchange(await apihashHex("rw", body))).code, 20000);
    assert.equal((await exchange(await apihashHex("rw", body))).code, 20001);
    assert.equal((await exchange("0".repeat(40))).code, 40002);
    assert.deepEqual(game.store.itemsOf("vid", "tcp-front"), { potion: 2 });
  } finally {
    await receiver.stop();
    await game.stop();
  }
});

Deno.test("sidecar bridge without SIDECAR_TOKEN fails with one clear line", async () => {
  const out = await new Deno.Command("node", {
    args: ["sidecar/main.mjs", "bridge", "--port", "0"],
    cwd: new URL("../..", import.meta.url).pathname,
    env: { SIDECAR_TOKEN: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(stderr.trim().split("\n").length, 1, stderr);
  assert.match(stderr, /^item sidecar: SIDECAR_TOKEN is required/);
});
