/** Admin: KMS wallets, registering existing contracts, and deploying the bundled contracts. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { requireGame } from "../../lib/tenancy.ts";
import { gameIndexField } from "./params.ts";
import { CONTRACT_TYPES, registerContract } from "../../lib/chain/registry.ts";
import { deployContract } from "../../lib/chain/deploy.ts";
import { hexToXpla } from "../../lib/chain/xpla/keys.ts";
import type { Hex } from "viem";

const network = z.enum(["polygon", "xpla"]);

const postWallet = createRoute({
  method: "post",
  path: "/admin/v1/wallets",
  tags: ["admin"],
  summary: "Create (or import) a KMS wallet for a game; the key is never returned",
  request: {
    body: jsonBody(z.object({
      gameIndex: gameIndexField,
      privateKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x + 64 hex").optional(),
    })),
  },
  responses: {
    201: jsonResponse(
      z.object({
        address: z.string().openapi({ description: "the wallet on polygon (0x…)" }),
        xplaAddress: z.string().openapi({ description: "the same key's xpla1… address" }),
      }),
      "created",
    ),
  },
});

/** A registered contract as the admin API answers it. */
export const contractRecord = z.object({
  network: z.string(),
  address: z.string(),
  type: z.string(),
  name: z.string(),
  owner: z.string(),
  gameIndex: z.number(),
  symbolUri: z.string().nullable(),
});

const postContract = createRoute({
  method: "post",
  path: "/admin/v1/contracts",
  tags: ["admin"],
  summary: "Register an existing contract for a game",
  request: {
    body: jsonBody(z.object({
      network,
      address: z.string().min(1),
      type: z.enum(CONTRACT_TYPES),
      name: z.string().trim().min(1).max(200),
      owner: z.string().min(1),
      gameIndex: gameIndexField,
      symbolUri: z.string().max(2048).optional(),
    })),
  },
  responses: { 201: jsonResponse(contractRecord, "registered") },
});

const postDeploy = createRoute({
  method: "post",
  path: "/admin/v1/contracts/deploy",
  tags: ["admin"],
  summary: "Deploy a bundled contract signed by a KMS wallet, then register it",
  request: {
    body: jsonBody(z.object({
      network,
      gameIndex: gameIndexField,
      type: z.enum(CONTRACT_TYPES),
      from: z.string().min(1),
      name: z.string().trim().min(1).max(200),
      symbol: z.string().trim().min(1).max(32).optional(),
      initialSupply: z.string().regex(/^\d{1,78}$/).optional(),
      token: z.string().optional(),
      symbolUri: z.string().max(2048).optional(),
      nftContract: z.string().optional(),
      initialTokens: z.string().regex(/^\d{1,78}$/).optional(),
    })),
  },
  responses: {
    201: jsonResponse(
      z.object({
        address: z.string(),
        txHash: z.string(),
        calls: z.array(z.object({ call: z.string(), from: z.string(), txHash: z.string() })),
        missingCalls: z.array(
          z.object({ contract: z.string(), call: z.string(), reason: z.string() }),
        ),
      }),
      "deployed; a lock trusted by nftContract, a pool trusted by and funded from its token",
    ),
  },
});

/** Registers the chain admin routes. */
export function registerChainAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(postWallet, async (c) => {
    const s = c.get("services");
    const body = c.req.valid("json");
    await requireGame(s.db, body.gameIndex);
    const wallet = await s.kms.createWallet(body.gameIndex, body.privateKey as Hex | undefined);
    return c.json({ ...wallet, xplaAddress: hexToXpla(wallet.address) }, 201) as JsonResponse;
  });
  app.openapi(postContract, async (c) => {
    const s = c.get("services");
    const body = c.req.valid("json");
    await requireGame(s.db, body.gameIndex);
    const contract = await registerContract(s.db, { ...body, symbolUri: body.symbolUri ?? null });
    return c.json(contract, 201) as JsonResponse;
  });
  app.openapi(postDeploy, async (c) => {
    const { address, txHash, calls, missingCalls } = await deployContract(
      c.get("services"),
      c.req.valid("json"),
    );
    return c.json({ address, txHash, calls, missingCalls }, 201) as JsonResponse;
  });
}
