/**
 * The xpla side of POST /core/v1/multisig and POST /core/v1/multisig/tx[/{address}] (bodies
 * validated by multisig.ts; work done by lib/chain/xpla/multisig.ts). On xpla nothing is sent to
 * create a wallet (the answer is `{address}`), and the assembled transaction is broadcast by the
 * creator as it is (no further signature).
 */
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { requireXpla } from "../../lib/chain/xpla/transactions.ts";
import { assembleXplaMultisigTx, createXplaMultisig } from "../../lib/chain/xpla/multisig.ts";

/** Creates an xpla multisig wallet: `data: {address}`. */
export async function createOnXpla(
  c: Context<AppEnv>,
  body: { from: string; signers: string[]; threshold: number },
) {
  const s = c.get("services");
  const created = await createXplaMultisig(s, requireXpla(s), {
    gameIndex: c.get("app").gameIndex,
    from: body.from,
    signers: body.signers,
    threshold: body.threshold,
  });
  return renderChainOk(c, created);
}

/** Assembles a multisig transaction: `data: {rawTx (base64 tx bytes), requestId, reqeustId}`. */
export async function assembleOnXpla(
  c: Context<AppEnv>,
  q: { from: string; wallet: string; tx: unknown; signatures: string[] },
) {
  const s = c.get("services");
  const { rawTx, requestId } = await assembleXplaMultisigTx(s, requireXpla(s), {
    gameIndex: c.get("app").gameIndex,
    from: q.from,
    to: q.wallet,
    tx: q.tx,
    signatures: q.signatures,
  });
  const id = requestId ?? crypto.randomUUID();
  return renderChainOk(c, { rawTx, requestId: id, reqeustId: id });
}
