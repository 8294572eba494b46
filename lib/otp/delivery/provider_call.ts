/** One provider HTTP call through the outbound service, with every failure made a PROVIDER_ERROR. */
import { DomainError } from "../../errors.ts";
import type { Outbound, OutboundRequest, OutboundResponse } from "../../outbound/mod.ts";

/**
 * Sends the request; answers the response when its status is 2xx. Timeouts, network errors,
 * refused addresses and other statuses throw DomainError("upstream", "PROVIDER_ERROR") whose
 * message names the provider and what it said (never the credentials).
 */
export async function callProvider(
  outbound: Outbound,
  provider: string,
  req: OutboundRequest,
  describe: (res: OutboundResponse) => string = (res) => res.text.slice(0, 200),
): Promise<OutboundResponse> {
  let res: OutboundResponse;
  try {
    res = await outbound.send(req);
  } catch (err) {
    throw new DomainError(
      "upstream",
      "PROVIDER_ERROR",
      `${provider} could not be reached: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (res.status < 200 || res.status > 299) {
    const said = describe(res).trim();
    throw new DomainError(
      "upstream",
      "PROVIDER_ERROR",
      `${provider} refused the message (HTTP ${res.status}${said ? `: ${said}` : ""})`,
    );
  }
  return res;
}

/** The JSON body of a response, or null when it is not JSON. */
export function jsonOf(res: OutboundResponse): unknown {
  try {
    return JSON.parse(res.text);
  } catch {
    return null;
  }
}
