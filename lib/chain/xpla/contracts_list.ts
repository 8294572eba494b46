/** The contract list by owner on XPLA: the registry, plus what the chain says the owner created. */
import type { Services } from "../../services.ts";
import { listContractsByOwner } from "../../contracts.ts";
import { contractsByCreator } from "./lcd.ts";
import { parseXplaAddress } from "./keys.ts";

/**
 * Registered contracts of the game whose owner is `owner`, and registered contracts the chain
 * lists as instantiated by `owner` (`GET /cosmwasm/wasm/v1/contracts/creator/{addr}`), which
 * may be registered under another owner (e.g. the operator). Like Polygon's list, it answers
 * from the registry alone when no LCD is configured.
 */
export async function contractsByOwnerXpla(
  s: Services,
  q: Omit<Parameters<typeof listContractsByOwner>[1], "createdOnChain">,
) {
  const owner = parseXplaAddress(q.owner, "owner");
  const created = s.xpla ? await contractsByCreator(s.xpla, owner) : [];
  return await listContractsByOwner(s.db, { ...q, owner, createdOnChain: created });
}
