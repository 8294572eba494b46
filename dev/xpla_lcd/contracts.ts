/**
 * The CosmWasm contracts of the local XPLA LCD, with real state: cw721-base with the
 * cw2981-royalties extension, cw20-base, the NFT lock and the convert pool (messages as in the
 * README's "XPLA contracts" section). Error texts follow the Rust contracts'.
 */
import { base64 } from "@scure/base";

/** Contract kinds the local chain can instantiate. */
export type ContractKind = "cw721" | "cw20" | "lock" | "convert-pool";

/** A contract failure (becomes the tx's raw_log or the query's error). */
export class ContractError extends Error {}

/** One instantiated contract. */
export interface ContractState {
  address: string;
  kind: ContractKind;
  creator: string;
  label: string;
  // deno-lint-ignore no-explicit-any
  state: any;
}

/** Calls another contract as part of the same transaction. */
export type CallContract = (
  sender: string,
  contract: string,
  msg: Record<string, unknown>,
) => void;

type Msg = Record<string, Record<string, unknown>>;

function one(msg: Msg): [string, Record<string, unknown>] {
  const keys = Object.keys(msg ?? {});
  if (keys.length !== 1 || typeof msg[keys[0]] !== "object" || msg[keys[0]] === null) {
    throw new ContractError("Error parsing into type msg: unknown variant");
  }
  return [keys[0], msg[keys[0]]];
}

function text(v: unknown, field: string): string {
  if (typeof v !== "string" || v === "") {
    throw new ContractError(`Error parsing into type msg: missing field \`${field}\``);
  }
  return v;
}

function uint(v: unknown, field: string): bigint {
  if (typeof v !== "string" || !/^\d{1,39}$/.test(v)) {
    throw new ContractError(`Error parsing into type msg: invalid Uint128 \`${field}\``);
  }
  return BigInt(v);
}

function decodeHook(v: unknown): Msg {
  try {
    return JSON.parse(new TextDecoder().decode(base64.decode(text(v, "msg"))));
  } catch (err) {
    if (err instanceof ContractError) throw err;
    throw new ContractError("Error parsing into type hook msg: invalid base64 JSON");
  }
}

/** The initial state of a contract kind from its instantiate message. */
export function instantiate(
  kind: ContractKind,
  creator: string,
  init: Record<string, unknown>,
  // deno-lint-ignore no-explicit-any
): any {
  switch (kind) {
    case "cw721":
      return {
        name: String(init.name ?? ""),
        symbol: String(init.symbol ?? ""),
        minter: String(init.minter ?? creator),
        tokens: {} as Record<
          string,
          { owner: string; token_uri: string | null; extension: unknown }
        >,
      };
    case "cw20": {
      const balances: Record<string, string> = {};
      for (const b of (init.initial_balances ?? []) as { address: string; amount: string }[]) {
        balances[b.address] = (BigInt(balances[b.address] ?? "0") + uint(b.amount, "amount"))
          .toString();
      }
      return {
        name: String(init.name ?? ""),
        symbol: String(init.symbol ?? ""),
        decimals: Number(init.decimals ?? 6),
        balances,
        marketing: (init.marketing ?? null) as Record<string, unknown> | null,
      };
    }
    case "lock":
      return { owner: String(init.owner ?? creator), locked: {}, requests: {} };
    case "convert-pool":
      return {
        owner: String(init.owner ?? creator),
        token: text(init.token, "token"),
        currency: {} as Record<string, string>,
        codes: [] as string[],
        requests: {} as Record<string, true>,
      };
  }
}

function claimRequest(state: { requests: Record<string, true> }, id: string) {
  if (state.requests[id]) throw new ContractError(`request_id ${id} already processed`);
  state.requests[id] = true;
}

function cw20Balance(token: ContractState, address: string): bigint {
  return BigInt(token.state.balances[address] ?? "0");
}

/** Executes a message on a contract (state changes in place; the caller snapshots for atomicity). */
export function execute(
  c: ContractState,
  sender: string,
  msg: Msg,
  call: CallContract,
  lookup: (address: string) => ContractState | undefined,
): void {
  const [name, m] = one(msg);
  const s = c.state;
  if (c.kind === "cw721") {
    if (name === "mint") {
      if (sender !== s.minter) {
        throw new ContractError("Caller is not the contract's current owner");
      }
      const id = text(m.token_id, "token_id");
      if (s.tokens[id]) throw new ContractError("token_id already claimed");
      s.tokens[id] = {
        owner: text(m.owner, "owner"),
        token_uri: (m.token_uri as string | null) ?? null,
        extension: m.extension ?? null,
      };
      return;
    }
    if (name === "transfer_nft" || name === "send_nft") {
      const id = text(m.token_id, "token_id");
      const token = s.tokens[id];
      if (!token) throw new ContractError(`cw721_base::state::TokenInfo not found`);
      if (token.owner !== sender) {
        throw new ContractError("Caller is not the contract's current owner");
      }
      const to = name === "send_nft"
        ? text(m.contract, "contract")
        : text(m.recipient, "recipient");
      token.owner = to;
      if (name === "send_nft") {
        call(c.address, to, { receive_nft: { sender, token_id: id, msg: m.msg } });
      }
      return;
    }
  }
  if (c.kind === "cw20") {
    if (name === "transfer" || name === "send") {
      const amount = uint(m.amount, "amount");
      const to = name === "send" ? text(m.contract, "contract") : text(m.recipient, "recipient");
      const have = cw20Balance(c, sender);
      if (have < amount) throw new ContractError(`Overflow: Cannot Sub with ${have} and ${amount}`);
      s.balances[sender] = (have - amount).toString();
      s.balances[to] = (cw20Balance(c, to) + amount).toString();
      if (name === "send") {
        call(c.address, to, { receive: { sender, amount: amount.toString(), msg: m.msg } });
      }
      return;
    }
  }
  if (c.kind === "lock") {
    if (name === "receive_nft") {
      const hook = one(decodeHook(m.msg));
      if (hook[0] !== "lock") {
        throw new ContractError("Error parsing into type hook: unknown variant");
      }
      const key = `${sender}/${text(m.token_id, "token_id")}`;
      if (s.locked[key]) throw new ContractError("nft already locked");
      claimRequest(s, text(hook[1].request_id, "request_id"));
      s.locked[key] = text(m.sender, "sender");
      return;
    }
    if (name === "unlock") {
      if (sender !== s.owner) throw new ContractError("Unauthorized");
      const nft = text(m.nft_contract, "nft_contract");
      const id = text(m.token_id, "token_id");
      const key = `${nft}/${id}`;
      const owner = s.locked[key];
      if (!owner) throw new ContractError("nft not locked");
      claimRequest(s, text(m.request_id, "request_id"));
      delete s.locked[key];
      call(c.address, nft, { transfer_nft: { recipient: owner, token_id: id } });
      return;
    }
  }
  if (c.kind === "convert-pool") {
    const remember = (code: string) => {
      if (!s.codes.includes(code)) s.codes.push(code);
    };
    if (name === "to_token") {
      if (sender !== s.owner) throw new ContractError("Unauthorized");
      claimRequest(s, text(m.request_id, "request_id"));
      const amount = uint(m.amount, "amount");
      const token = lookup(s.token)!;
      const available = cw20Balance(token, c.address);
      if (available < amount) {
        throw new ContractError(`pool exhausted: available ${available}, requested ${amount}`);
      }
      const code = text(m.goods_code, "goods_code");
      remember(code);
      s.currency[code] = (BigInt(s.currency[code] ?? "0") + uint(m.goods_amount, "goods_amount"))
        .toString();
      call(c.address, s.token, {
        transfer: { recipient: text(m.recipient, "recipient"), amount: amount.toString() },
      });
      return;
    }
    if (name === "receive") {
      if (sender !== s.token) throw new ContractError("Unauthorized: unknown token");
      const [hookName, hook] = one(decodeHook(m.msg));
      if (hookName !== "to_currency") {
        throw new ContractError("Error parsing into type hook: unknown variant");
      }
      claimRequest(s, text(hook.request_id, "request_id"));
      const code = text(hook.goods_code, "goods_code");
      const goods = uint(hook.goods_amount, "goods_amount");
      const held = BigInt(s.currency[code] ?? "0");
      if (held < goods) {
        throw new ContractError(`currency exhausted: ${code} holds ${held}, requested ${goods}`);
      }
      s.currency[code] = (held - goods).toString();
      return;
    }
  }
  throw new ContractError(
    `Error parsing into type ${c.kind}::msg::ExecuteMsg: unknown variant \`${name}\``,
  );
}

/** Answers a smart query. */
export function query(
  c: ContractState,
  msg: Msg,
  lookup: (address: string) => ContractState | undefined,
): unknown {
  const [name, m] = one(msg);
  const s = c.state;
  if (c.kind === "cw721") {
    const token = () => {
      const t = s.tokens[text(m.token_id, "token_id")];
      if (!t) {
        throw new ContractError(
          "type: cw721_base::state::TokenInfo<cw2981_royalties::Metadata>; key: [..] not found",
        );
      }
      return t;
    };
    if (name === "nft_info") return { token_uri: token().token_uri, extension: token().extension };
    if (name === "owner_of") return { owner: token().owner, approvals: [] };
    if (name === "contract_info") return { name: s.name, symbol: s.symbol };
    if (name === "num_tokens") return { count: Object.keys(s.tokens).length };
  }
  if (c.kind === "cw20") {
    if (name === "balance") {
      return { balance: cw20Balance(c, text(m.address, "address")).toString() };
    }
    if (name === "token_info") {
      const total = Object.values(s.balances as Record<string, string>)
        .reduce((a, b) => a + BigInt(b), 0n);
      return {
        name: s.name,
        symbol: s.symbol,
        decimals: s.decimals,
        total_supply: total.toString(),
      };
    }
    if (name === "marketing_info") {
      const mk = s.marketing ?? {};
      return {
        project: mk.project ?? null,
        description: mk.description ?? null,
        logo: mk.logo ?? null,
        marketing: mk.marketing ?? null,
      };
    }
  }
  if (c.kind === "lock") {
    if (name === "locked") {
      const key = `${text(m.nft_contract, "nft_contract")}/${text(m.token_id, "token_id")}`;
      return { owner: s.locked[key] ?? null };
    }
    if (name === "config") return { owner: s.owner };
  }
  if (c.kind === "convert-pool") {
    if (name === "pool_info") {
      const token = lookup(s.token);
      return {
        token_amount: token ? cw20Balance(token, c.address).toString() : "0",
        currency: (s.codes as string[]).map((code) => ({
          goods_code: code,
          goods_amount: s.currency[code],
        })),
      };
    }
    if (name === "config") return { token: s.token, owner: s.owner };
  }
  throw new ContractError(
    `Error parsing into type ${c.kind}::msg::QueryMsg: unknown variant \`${name}\``,
  );
}
