/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * The blockchain page's wallet tables rendered from admin API answers: balances with their unit,
 * nonce and sequence, the low-balance state where the read reports one, and paging links that
 * keep the page's other parameters.
 */
import assert from "node:assert/strict";
import type { Child } from "hono/jsx";
import { amountText, MultisigTable, WalletsTable } from "../../../routes/console/pages/wallets.tsx";

async function html(node: Child): Promise<string> {
  return String(await (node as { toString(): string | Promise<string> }).toString());
}

function wallet(polygon: Record<string, unknown> | null, xpla: Record<string, unknown> | null) {
  return {
    address: "0xB64e5FBA1a34b92D70B2e36bB04778D3273a15B0",
    xplaAddress: "xpla1ke89lws6xjuj6u9jud4mq3mc6vnn59ds648qjw",
    gameIndex: 1,
    keyHeld: true,
    createdAt: "2026-03-01T10:04:05.123Z",
    polygon,
    xpla,
  };
}

const ok = (body: unknown) => ({ ok: true as const, status: 200, body });

Deno.test("wallets: both addresses, balance with its unit, nonce and sequence, key, paging", async () => {
  const page = await html(
    <WalletsTable
      result={ok({
        items: [
          wallet(
            { chainId: 31337, balance: "1234.5", balanceWei: "1", nonce: 3 },
            {
              chainId: "xpla-local",
              balance: "0.000000123456789",
              balanceAxpla: "1",
              sequence: "2",
              active: true,
            },
          ),
        ],
        nextCursor: "abc",
      })}
      base="/console/g/1/blockchain"
      query={new URLSearchParams("status=FAILED")}
      param="wallets"
    />,
  );
  // Each address whole in one element; its only line-break opportunity is at its middle.
  assert.match(
    page,
    /<code class="longid">0xB64e5FBA1a34b92D70B<wbr\/>2e36bB04778D3273a15B0<\/code>/,
  );
  assert.match(
    page,
    /<code class="longid">xpla1ke89lws6xjuj6u9ju<wbr\/>d4mq3mc6vnn59ds648qjw<\/code>/,
    "the whole xpla1 address",
  );
  assert.match(page, /1,234\.5 POL/);
  assert.match(page, />&lt; 0\.000001 XPLA</, "a dust balance is not shown as 0");
  assert.match(page, /title="0\.000000123456789 XPLA"/, "the exact amount on hover");
  assert.match(page, /nonce 3 · chain 31337/);
  assert.match(page, /sequence 2 · chain xpla-local/);
  assert.match(page, /<span class="badge ok">held<\/span>/);
  assert.match(page, /datetime="2026-03-01T10:04:05.123Z"/);
  assert.match(
    page,
    /href="\/console\/g\/1\/blockchain\?status=FAILED&amp;wallets=abc#wallets-list"/,
  );
  assert.ok(!page.includes("balanceWei"), "no raw field names");
});

Deno.test("wallets: the low-balance state shows where the read reports it, else says so", async () => {
  const render = (lowBalance?: boolean) =>
    html(
      <WalletsTable
        result={ok({
          items: [
            wallet(
              {
                chainId: 137,
                balance: "0.01",
                balanceWei: "1",
                nonce: 0,
                ...(lowBalance === undefined ? {} : { lowBalance }),
              },
              null,
            ),
          ],
          nextCursor: null,
        })}
        base="/b"
        query={new URLSearchParams()}
        param="wallets"
      />,
    );
  assert.match(await render(true), /<span class="badge bad">low balance<\/span>/);
  assert.match(await render(false), /balance above the low level/);
  const unknown = await render();
  assert.match(unknown, /low-balance level not reported/);
  assert.match(unknown, /no node configured/, "XPLA without a node");
  assert.ok(!unknown.includes("Next page"), "one page: no next link");
});

Deno.test("wallets and multisig: a failed read is said in place; the empty multisig list names the real endpoint", async () => {
  const down = await html(
    <WalletsTable
      result={{ ok: false, status: 503, code: "CHAIN_UNAVAILABLE", message: "node down" }}
      base="/b"
      query={new URLSearchParams()}
      param="wallets"
    />,
  );
  assert.match(down, /Wallets cannot be shown now/);
  assert.match(down, /node down/);
  const empty = await html(
    <MultisigTable
      result={ok({ items: [], nextCursor: null })}
      base="/b"
      query={new URLSearchParams()}
      param="multisig"
    />,
  );
  assert.match(empty, /POST \/core\/v1\/multisig/);
  assert.ok(!empty.includes("/admin/v1/multisig"));
});

Deno.test("amounts: thousands grouped, at most six decimals, trailing zeros dropped", async () => {
  assert.match(await html(amountText("1000000", "POL")), />1,000,000 POL</);
  assert.match(await html(amountText("2.500000", "POL")), />2\.5 POL</);
  assert.match(await html(amountText("0.1234567", "XPLA")), />≈ 0\.123456 XPLA</);
});
