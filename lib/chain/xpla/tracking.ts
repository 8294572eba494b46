/** The outcome of a PENDING XPLA transaction, read from the LCD's tx lookup. */
import type { Services } from "../../services.ts";
import type { PendingRow } from "../tracker.ts";
import { getTx, type TxResponse, type XplaChain } from "./lcd.ts";

/**
 * SUCCESS when the chain ran it with code 0 and it is the requested transaction (every message
 * sent by the request's sender, one of them addressed to the request's contract directly or
 * through a cw721 `send_nft` / cw20 `send`); FAILED for a non-zero code or another transaction,
 * or when the chain never saw it within TX_DROP_AFTER_MS; null while still pending.
 */
export async function xplaOutcome(
  s: Services,
  chain: XplaChain,
  row: PendingRow,
  nowMs: number,
): Promise<"SUCCESS" | "FAILED" | null> {
  const found = await getTx(chain, row.tx_hash);
  if (found) return found.code === 0 && isRequested(found, row) ? "SUCCESS" : "FAILED";
  const since = (row.sent_at ?? row.updated_at).getTime();
  return nowMs - since < s.config.TX_DROP_AFTER_MS ? null : "FAILED";
}

function isRequested(tx: TxResponse, row: PendingRow): boolean {
  const messages = tx.tx?.body?.messages ?? [];
  if (messages.length === 0) return false;
  const from = row.from_address.toLowerCase();
  const contract = row.contract.toLowerCase();
  let targets = false;
  for (const m of messages) {
    if (String(m.sender ?? "").toLowerCase() !== from) return false;
    const msg = (m.msg ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const nested = msg.send_nft?.contract ?? msg.send?.contract;
    if (String(m.contract ?? "").toLowerCase() === contract) targets = true;
    if (typeof nested === "string" && nested.toLowerCase() === contract) targets = true;
  }
  return targets;
}
