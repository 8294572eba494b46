/** Admin: owner actions on registered contracts (roles and calls), answered once mined. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { chainUnavailable } from "./params.ts";
import { OWNER_CALLS, ownerCall, setRole } from "../../lib/chain/owner_actions.ts";

const params = z.object({ address: z.string().min(1).max(64) });
const result = z.object({ call: z.string(), from: z.string(), txHash: z.string() });

const rolesRoute = createRoute({
  method: "post",
  path: "/admin/v1/contracts/{address}/roles",
  tags: ["admin"],
  summary: "Grant or revoke a role on an NFT contract (sent by its recorded owner, or `from`)",
  request: {
    params,
    body: jsonBody(z.object({
      network: z.literal("polygon"),
      role: z.literal("minter"),
      account: z.string().min(1).max(64),
      grant: z.boolean(),
      from: z.string().min(1).max(64).optional(),
    })),
  },
  responses: {
    503: chainUnavailable,
    200: jsonResponse(
      result.extend({ role: z.string(), account: z.string(), hasRole: z.boolean() }),
      "mined",
    ),
  },
});

const callsRoute = createRoute({
  method: "post",
  path: "/admin/v1/contracts/{address}/calls",
  tags: ["admin"],
  summary:
    "Owner call: setLockOperator {operator, trusted} (nft), setTrustedPool {pool, trusted}, transfer {to, amount} (token), fundPool {amount} (convert-pool), transferOwnership {newOwner}",
  request: {
    params,
    body: jsonBody(z.object({
      network: z.literal("polygon"),
      call: z.enum(OWNER_CALLS),
      args: z.record(z.string(), z.unknown()).default({}),
      from: z.string().min(1).max(64).optional(),
    })),
  },
  responses: { 503: chainUnavailable, 200: jsonResponse(result, "mined") },
});

/** Registers the contract action routes. */
export function registerContractActions(app: OpenAPIHono<AppEnv>) {
  app.openapi(rolesRoute, async (c) => {
    const body = c.req.valid("json");
    const done = await setRole(c.get("services"), {
      ...body,
      contract: c.req.valid("param").address,
    });
    return c.json(done, 200) as JsonResponse;
  });
  app.openapi(callsRoute, async (c) => {
    const body = c.req.valid("json");
    const done = await ownerCall(c.get("services"), {
      ...body,
      contract: c.req.valid("param").address,
    });
    return c.json(done, 200) as JsonResponse;
  });
}
