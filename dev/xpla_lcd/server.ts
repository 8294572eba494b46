/**
 * A local XPLA LCD for tests and local development: the REST endpoints the service uses, in
 * the gRPC-gateway shapes, over an in-memory chain with real state. Accounts carry number,
 * sequence, public key and axpla balance; transactions are protobuf-decoded, signatures
 * verified (ethsecp256k1 SIGN_MODE_DIRECT; amino multisig in multisig.ts), sequences checked
 * and replays refused at broadcast (CheckTx); a block includes them shortly after (DeliverTx),
 * executing the CosmWasm contracts of contracts.ts atomically per transaction. A transaction's
 * timeout_height is honoured: refused at broadcast when the next block is past it, never included
 * past it, and dropped from the mempool (with the sender's later transactions, whose sequence it
 * held) once the chain's height reaches it, as a node's recheck does.
 *
 * Not part of the LCD: `/_local/*` set-up and control endpoints (fund an account, instantiate a
 * contract, hold or release block production, produce blocks; README "Local LCD").
 */
import { AuthInfo, SignDoc, TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { SignMode } from "cosmjs-types/cosmos/tx/signing/v1beta1/signing";
import { PubKey } from "cosmjs-types/cosmos/crypto/secp256k1/keys";
import { MsgExecuteContract } from "cosmjs-types/cosmwasm/wasm/v1/tx";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import type { Any } from "cosmjs-types/google/protobuf/any";
import { base64 } from "@scure/base";
import { sha256 } from "viem";
import {
  addressOfPublicKey,
  fromBech32,
  toBech32,
  verifyEthSecp256k1,
} from "../../lib/chain/xpla/keys.ts";
import {
  COSMOS_EVM_PUBKEY_TYPE,
  ETH_PUBKEY_TYPE,
  EXECUTE_TYPE,
  feeFor,
  XPLA_DENOM,
} from "../../lib/chain/xpla/tx.ts";
import {
  ContractError,
  type ContractKind,
  type ContractState,
  execute,
  instantiate,
  query,
} from "./contracts.ts";
import { decodeMultisigPubKey, MULTISIG_TYPE, verifyMultisig } from "./multisig.ts";

const SEND_TYPE = "/cosmos.bank.v1beta1.MsgSend";

/**
 * An account of the local chain. Like a Cosmos node, the chain keeps two views: the committed
 * one (what the account query answers: sequence and key as of the last block) and the check
 * state, which also counts transactions accepted into the mempool (what CheckTx and simulate
 * check sequences against).
 */
export interface LocalAccount {
  address: string;
  accountNumber: number;
  /** Committed sequence. */
  sequence: number;
  /** Sequence including mempool transactions. */
  checkSequence: number;
  balance: bigint;
  /** The committed public key (Any), set when the account's first transaction is included. */
  pubKey: Any | null;
  /** The key as the check state knows it (set by the first accepted transaction). */
  checkPubKey: Any | null;
}

interface StoredTx {
  hash: string;
  height: number;
  code: number;
  codespace: string;
  rawLog: string;
  gasWanted: bigint;
  gasUsed: bigint;
  json: Record<string, unknown>;
}

/** Options of the local chain. */
export interface LocalLcdOptions {
  port?: number;
  chainId?: string;
  /** Minimum gas price in axpla (default the mainnet minimum). */
  minGasPrice?: string;
  /** Delay between a broadcast and its block. */
  blockMs?: number;
}

/** A running local LCD. */
export interface LocalLcd {
  url: string;
  chainId: string;
  accounts: Map<string, LocalAccount>;
  contracts: Map<string, ContractState>;
  /** Creates (or tops up) an account with axpla. */
  fund(address: string, amount: bigint): LocalAccount;
  /** Instantiates a contract directly; answers its address. */
  instantiate(
    kind: ContractKind,
    creator: string,
    init: Record<string, unknown>,
    label?: string,
  ): string;
  /** Smart query, as the LCD answers it. */
  query(contract: string, msg: Record<string, unknown>): unknown;
  /** Holds blocks (broadcast txs stay in the mempool) until released. */
  holdBlocks(hold: boolean): void;
  /**
   * Produces `count` blocks at once; `withMempool` false (the default) leaves the mempool out of
   * them, as a chain too full to include it would. Answers the new height.
   */
  advanceBlocks(count: number, options?: { withMempool?: boolean }): number;
  /** The latest block height. */
  height(): number;
  close(): Promise<void>;
}

class TxFailure extends Error {
  constructor(readonly code: number, readonly codespace: string, message: string) {
    super(message);
  }
}

function grpcError(status: number, code: number, message: string) {
  return Response.json({ code, message, details: [] }, { status });
}

/** Starts the local LCD on 127.0.0.1. */
export function startLocalLcd(options: LocalLcdOptions = {}): LocalLcd {
  const chainId = options.chainId ?? "localxpla_37-1";
  const minGasPrice = options.minGasPrice ?? "850000000000";
  const blockMs = options.blockMs ?? 20;
  const accounts = new Map<string, LocalAccount>();
  const contracts = new Map<string, ContractState>();
  const byCreator = new Map<string, string[]>();
  const txs = new Map<string, StoredTx>();
  const mempool: {
    hash: string;
    body: TxBody;
    json: Record<string, unknown>;
    gasWanted: bigint;
    /** Signer accounts and keys, committed when the block includes the tx. */
    signers: { acc: LocalAccount; pk: Any | null }[];
    /** Each signer's sequence in the tx. */
    sequences: bigint[];
    /** Fee taken from the payer at CheckTx (given back if the tx is dropped). */
    fee: { payer: LocalAccount; amount: bigint };
  }[] = [];
  let height = 1;
  let nextAccount = 1;
  let nextContract = 1;
  const salt = crypto.randomUUID();
  let held = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function account(address: string): LocalAccount | undefined {
    return accounts.get(address);
  }

  function fund(address: string, amount: bigint): LocalAccount {
    let a = accounts.get(address);
    if (!a) {
      a = {
        address,
        accountNumber: nextAccount++,
        sequence: 0,
        checkSequence: 0,
        balance: 0n,
        pubKey: null,
        checkPubKey: null,
      };
      accounts.set(address, a);
    }
    a.balance += amount;
    return a;
  }

  function addContract(
    kind: ContractKind,
    creator: string,
    init: Record<string, unknown>,
    label = kind,
  ): string {
    // Salted per chain instance: two local chains never share a contract address.
    const seed = new TextEncoder().encode(`${salt}/contract/${nextContract++}`);
    const address = toBech32(sha256(seed, "bytes"));
    contracts.set(address, {
      address,
      kind,
      creator,
      label,
      state: instantiate(kind, creator, init),
    });
    byCreator.set(creator, [...(byCreator.get(creator) ?? []), address]);
    return address;
  }

  function lookup(address: string) {
    return contracts.get(address);
  }

  // --- transaction decoding and checks -------------------------------------------------------

  interface Decoded {
    raw: TxRaw;
    body: TxBody;
    authInfo: AuthInfo;
    signers: string[];
    json: Record<string, unknown>;
  }

  function messageJson(m: Any): Record<string, unknown> {
    if (m.typeUrl === EXECUTE_TYPE) {
      const e = MsgExecuteContract.decode(m.value);
      return {
        "@type": EXECUTE_TYPE,
        sender: e.sender,
        contract: e.contract,
        msg: JSON.parse(new TextDecoder().decode(e.msg)),
        funds: e.funds,
      };
    }
    if (m.typeUrl === SEND_TYPE) {
      const s = MsgSend.decode(m.value);
      return {
        "@type": SEND_TYPE,
        from_address: s.fromAddress,
        to_address: s.toAddress,
        amount: s.amount,
      };
    }
    throw new TxFailure(2, "sdk", `unable to resolve type URL ${m.typeUrl}: tx parse error`);
  }

  function decode(txBytes: Uint8Array): Decoded {
    let raw: TxRaw, body: TxBody, authInfo: AuthInfo;
    try {
      raw = TxRaw.decode(txBytes);
      body = TxBody.decode(raw.bodyBytes);
      authInfo = AuthInfo.decode(raw.authInfoBytes);
    } catch {
      throw new TxFailure(2, "sdk", "tx parse error");
    }
    if (body.messages.length === 0) {
      throw new TxFailure(2, "sdk", "must contain at least one message: invalid request");
    }
    const messages = body.messages.map(messageJson);
    const signers: string[] = [];
    for (const m of messages) {
      const signer = String(m.sender ?? m.from_address);
      if (!fromBech32(signer)) throw new TxFailure(7, "sdk", `invalid sender address ${signer}`);
      if (!signers.includes(signer)) signers.push(signer);
    }
    const json = {
      body: { messages, memo: body.memo, timeout_height: body.timeoutHeight.toString() },
      auth_info: {
        fee: {
          amount: authInfo.fee?.amount ?? [],
          gas_limit: (authInfo.fee?.gasLimit ?? 0n).toString(),
        },
      },
      signatures: raw.signatures.map((s) => base64.encode(s)),
    };
    return { raw, body, authInfo, signers, json };
  }

  function pubKeyAddress(pk: Any): string {
    if (pk.typeUrl === ETH_PUBKEY_TYPE || pk.typeUrl === COSMOS_EVM_PUBKEY_TYPE) {
      return addressOfPublicKey(PubKey.decode(pk.value).key);
    }
    if (pk.typeUrl === MULTISIG_TYPE) return decodeMultisigPubKey(pk).address;
    throw new TxFailure(8, "sdk", `unsupported public key type ${pk.typeUrl}: invalid pubkey`);
  }

  function gasFor(d: Decoded, txBytes: Uint8Array, calls: number): bigint {
    return BigInt(60_000 + 8 * txBytes.length + 25_000 * d.body.messages.length + 5_000 * calls);
  }

  /** Ante checks; with `simulate`, signatures are not verified and a key may be absent. */
  function ante(d: Decoded, simulate: boolean) {
    const timeout = d.body.timeoutHeight;
    if (timeout > 0n && BigInt(height + 1) > timeout) {
      throw new TxFailure(
        30,
        "sdk",
        `block height: ${height + 1}, timeout height: ${timeout}: tx timeout height`,
      );
    }
    if (d.authInfo.signerInfos.length !== d.signers.length) {
      throw new TxFailure(
        4,
        "sdk",
        `wrong number of signers; expected ${d.signers.length}, got ${d.authInfo.signerInfos.length}: unauthorized`,
      );
    }
    if (d.raw.signatures.length !== d.signers.length) {
      throw new TxFailure(
        4,
        "sdk",
        `invalid number of signatures; expected: ${d.signers.length}, got ${d.raw.signatures.length}: unauthorized`,
      );
    }
    const checked: { acc: LocalAccount; pk: Any | null }[] = [];
    d.signers.forEach((signer, i) => {
      const info = d.authInfo.signerInfos[i];
      const acc = account(signer);
      if (!acc) throw new TxFailure(9, "sdk", `account ${signer} not found: unknown address`);
      let pk = acc.checkPubKey;
      if (info.publicKey) {
        if (pubKeyAddress(info.publicKey) !== signer) {
          throw new TxFailure(
            8,
            "sdk",
            `pubKey does not match signer address ${signer} with signer index: ${i}: invalid pubkey`,
          );
        }
        pk = pk ?? info.publicKey;
      }
      if (!pk && !simulate) {
        throw new TxFailure(8, "sdk", `pubkey on account is not set: invalid pubkey`);
      }
      if (BigInt(acc.checkSequence) !== info.sequence) {
        throw new TxFailure(
          32,
          "sdk",
          `account sequence mismatch, expected ${acc.checkSequence}, got ${info.sequence}: incorrect account sequence`,
        );
      }
      if (!simulate && pk) {
        const ok = verifySigner(d, i, acc, pk);
        if (!ok) {
          throw new TxFailure(
            4,
            "sdk",
            `signature verification failed; please verify account number (${acc.accountNumber}), sequence (${acc.checkSequence}) and chain-id (${chainId}): unauthorized`,
          );
        }
      }
      checked.push({ acc, pk });
    });
    return checked;
  }

  function verifySigner(d: Decoded, i: number, acc: LocalAccount, pk: Any): boolean {
    const info = d.authInfo.signerInfos[i];
    const signature = d.raw.signatures[i];
    if (pk.typeUrl === MULTISIG_TYPE) {
      if (!info.modeInfo?.multi) return false;
      return verifyMultisig({
        pubKey: pk,
        modeInfo: info.modeInfo,
        signature,
        chainId,
        accountNumber: acc.accountNumber,
        sequence: acc.checkSequence,
        body: d.body,
        json: d.json,
        fee: d.authInfo.fee!,
      });
    }
    if (info.modeInfo?.single?.mode !== SignMode.SIGN_MODE_DIRECT) return false;
    const signBytes = SignDoc.encode({
      bodyBytes: d.raw.bodyBytes,
      authInfoBytes: d.raw.authInfoBytes,
      chainId,
      accountNumber: BigInt(acc.accountNumber),
    }).finish();
    return verifyEthSecp256k1(PubKey.decode(pk.value).key, signBytes, signature);
  }

  /** Runs the messages on the live state, all or nothing; answers the contract calls made. */
  function run(body: TxBody): number {
    const snapshot = structuredClone({
      contracts: [...contracts.values()].map((c) => [c.address, c.state]),
      balances: [...accounts.values()].map((a) => [a.address, a.balance]),
    }) as { contracts: [string, unknown][]; balances: [string, bigint][] };
    let calls = 0;
    const call = (sender: string, address: string, msg: Record<string, unknown>) => {
      const c = contracts.get(address);
      if (!c) throw new ContractError(`no such contract: ${address}: not found`);
      calls++;
      execute(c, sender, msg as never, call, lookup);
    };
    try {
      body.messages.forEach((m, index) => {
        try {
          const j = messageJson(m);
          if (j["@type"] === SEND_TYPE) {
            const from = account(String(j.from_address))!;
            const amount = (j.amount as { denom: string; amount: string }[])
              .filter((c) => c.denom === XPLA_DENOM)
              .reduce((a, c) => a + BigInt(c.amount), 0n);
            if (from.balance < amount) {
              throw new TxFailure(
                5,
                "sdk",
                `${from.balance}axpla is smaller than ${amount}axpla: insufficient funds`,
              );
            }
            from.balance -= amount;
            fund(String(j.to_address), amount);
            return;
          }
          call(String(j.sender), String(j.contract), j.msg as Record<string, unknown>);
        } catch (err) {
          if (err instanceof ContractError) {
            throw new TxFailure(
              5,
              "wasm",
              `failed to execute message; message index: ${index}: ${err.message}: execute wasm contract failed`,
            );
          }
          throw err;
        }
      });
    } catch (err) {
      for (const [address, state] of snapshot.contracts) contracts.get(address)!.state = state;
      for (const [address, balance] of snapshot.balances) accounts.get(address)!.balance = balance;
      throw err;
    }
    return calls;
  }

  // --- endpoints -------------------------------------------------------------------------------

  function simulateTx(txBytes: Uint8Array) {
    const d = decode(txBytes);
    ante(d, true);
    const snapshot = structuredClone({
      contracts: [...contracts.values()].map((c) => [c.address, c.state]),
      balances: [...accounts.values()].map((a) => [a.address, a.balance]),
    }) as { contracts: [string, unknown][]; balances: [string, bigint][] };
    try {
      const calls = run(d.body);
      return gasFor(d, txBytes, calls);
    } finally {
      for (const [address, state] of snapshot.contracts) contracts.get(address)!.state = state;
      for (const [address, balance] of snapshot.balances) accounts.get(address)!.balance = balance;
    }
  }

  function checkTx(
    txBytes: Uint8Array,
  ): { hash: string; code: number; rawLog: string; codespace: string } {
    const hash = sha256(txBytes).slice(2).toUpperCase();
    try {
      if (txs.has(hash) || mempool.some((t) => t.hash === hash)) {
        throw new TxFailure(19, "sdk", "tx already exists in cache");
      }
      const d = decode(txBytes);
      const signers = ante(d, false);
      const fee = d.authInfo.fee;
      const gasLimit = fee?.gasLimit ?? 0n;
      const paid = (fee?.amount ?? []).filter((c) => c.denom === XPLA_DENOM)
        .reduce((a, c) => a + BigInt(c.amount), 0n);
      const required = feeFor(gasLimit, minGasPrice);
      if (paid < required) {
        throw new TxFailure(
          13,
          "sdk",
          `insufficient fees; got: ${paid}axpla required: ${required}axpla: insufficient fee`,
        );
      }
      const payer = signers[0].acc;
      if (payer.balance < paid) {
        throw new TxFailure(
          5,
          "sdk",
          `${payer.balance}axpla is smaller than ${paid}axpla: insufficient funds`,
        );
      }
      payer.balance -= paid;
      for (const { acc, pk } of signers) {
        acc.checkSequence++;
        acc.checkPubKey = acc.checkPubKey ?? pk;
      }
      mempool.push({
        hash,
        body: d.body,
        json: d.json,
        gasWanted: gasLimit,
        signers,
        sequences: d.authInfo.signerInfos.map((i) => i.sequence),
        fee: { payer, amount: paid },
      });
      scheduleBlock();
      return { hash, code: 0, rawLog: "[]", codespace: "" };
    } catch (err) {
      if (err instanceof TxFailure) {
        return { hash, code: err.code, rawLog: err.message, codespace: err.codespace };
      }
      throw err;
    }
  }

  function scheduleBlock() {
    if (held || timer !== undefined) return;
    timer = setTimeout(produceBlock, blockMs);
  }

  function produceBlock() {
    timer = undefined;
    if (held || mempool.length === 0) return;
    commitBlock(true);
  }

  /**
   * Commits one block: with `withMempool`, the mempool's transactions still valid at this height
   * in order (a tx whose sequence a dropped one held is dropped too); then, as a node's recheck
   * does, drops what can no longer be included (past its timeout height, or behind a gap) and
   * recounts the check state's sequences from the committed ones.
   */
  function commitBlock(withMempool: boolean) {
    height++;
    if (withMempool) {
      for (const t of mempool.splice(0)) {
        const timedOut = t.body.timeoutHeight > 0n && BigInt(height) > t.body.timeoutHeight;
        const inOrder = t.signers.every(({ acc }, i) => BigInt(acc.sequence) === t.sequences[i]);
        if (timedOut || !inOrder) {
          t.fee.payer.balance += t.fee.amount;
          continue;
        }
        include(t);
      }
    }
    recheck();
  }

  function recheck() {
    for (const acc of accounts.values()) acc.checkSequence = acc.sequence;
    for (const t of mempool.splice(0)) {
      const expired = t.body.timeoutHeight > 0n && BigInt(height + 1) > t.body.timeoutHeight;
      const next = t.signers.every(({ acc }, i) => BigInt(acc.checkSequence) === t.sequences[i]);
      if (expired || !next) {
        t.fee.payer.balance += t.fee.amount;
        continue;
      }
      for (const { acc } of t.signers) acc.checkSequence++;
      mempool.push(t);
    }
  }

  function include(t: typeof mempool[number]) {
    for (const { acc, pk } of t.signers) {
      acc.sequence++;
      acc.pubKey = acc.pubKey ?? pk;
    }
    let code = 0, codespace = "", rawLog = "[]", gasUsed = 0n;
    try {
      const calls = run(t.body);
      gasUsed = BigInt(60_000 + 25_000 * t.body.messages.length + 5_000 * calls);
      if (gasUsed > t.gasWanted) {
        throw new TxFailure(
          11,
          "sdk",
          `out of gas; gasWanted: ${t.gasWanted}, gasUsed: ${gasUsed}: out of gas`,
        );
      }
    } catch (err) {
      if (!(err instanceof TxFailure)) throw err;
      code = err.code;
      codespace = err.codespace;
      rawLog = err.message;
    }
    txs.set(t.hash, {
      hash: t.hash,
      height,
      code,
      codespace,
      rawLog,
      gasWanted: t.gasWanted,
      gasUsed,
      json: t.json,
    });
  }

  function advanceBlocks(count: number, options: { withMempool?: boolean } = {}): number {
    for (let i = 0; i < count; i++) commitBlock(options.withMempool ?? false);
    return height;
  }

  function accountJson(a: LocalAccount) {
    let pub_key: Record<string, unknown> | null = null;
    if (a.pubKey?.typeUrl === MULTISIG_TYPE) {
      const m = decodeMultisigPubKey(a.pubKey);
      pub_key = {
        "@type": MULTISIG_TYPE,
        threshold: m.threshold,
        public_keys: m.keys.map((k) => ({ "@type": ETH_PUBKEY_TYPE, key: base64.encode(k) })),
      };
    } else if (a.pubKey) {
      pub_key = {
        "@type": a.pubKey.typeUrl,
        key: base64.encode(PubKey.decode(a.pubKey.value).key),
      };
    }
    return {
      account: {
        "@type": "/ethermint.types.v1.EthAccount",
        base_account: {
          address: a.address,
          pub_key,
          account_number: String(a.accountNumber),
          sequence: String(a.sequence),
        },
        code_hash: "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
      },
    };
  }

  function queryAnswer(address: string, b64: string): Response {
    const c = contracts.get(address);
    if (!c) return grpcError(404, 5, `no such contract: ${address}: not found`);
    let msg: Record<string, Record<string, unknown>>;
    try {
      msg = JSON.parse(new TextDecoder().decode(base64.decode(decodeURIComponent(b64))));
    } catch {
      return grpcError(400, 3, "query data must be json: invalid query");
    }
    try {
      return Response.json({ data: query(c, msg, lookup) });
    } catch (err) {
      if (err instanceof ContractError) {
        return grpcError(500, 2, `${err.message}: query wasm contract failed: unknown request`);
      }
      throw err;
    }
  }

  /** The `/_local/*` set-up and control endpoints (not part of an LCD). */
  async function control(req: Request, path: string): Promise<Response> {
    const b = await req.json().catch(() => null);
    if (!b || typeof b !== "object" || Array.isArray(b)) {
      return grpcError(400, 3, "body must be a JSON object: invalid request");
    }
    if (path === "/_local/fund") {
      const address = String(b.address ?? "");
      if (!fromBech32(address) || address !== address.toLowerCase()) {
        return grpcError(400, 3, `address must be an xpla1… address: invalid address`);
      }
      const amount = String(b.amount ?? "");
      if (!/^\d{1,40}$/.test(amount)) {
        return grpcError(400, 3, `amount must be an integer string of axpla: invalid coins`);
      }
      const a = fund(address, BigInt(amount));
      return Response.json({ address: a.address, balance: a.balance.toString() });
    }
    if (path === "/_local/contracts") {
      const kinds: ContractKind[] = ["cw721", "cw20", "lock", "convert-pool"];
      if (!kinds.includes(b.kind)) {
        return grpcError(400, 3, `kind must be one of ${kinds.join(", ")}: invalid request`);
      }
      if (typeof b.creator !== "string" || !fromBech32(b.creator)) {
        return grpcError(400, 3, `creator must be an xpla1… address: invalid address`);
      }
      try {
        return Response.json({ address: addContract(b.kind, b.creator, b.init ?? {}, b.label) });
      } catch (err) {
        if (err instanceof ContractError) return grpcError(400, 3, `init: ${err.message}`);
        throw err;
      }
    }
    if (path === "/_local/hold") {
      if (typeof b.hold !== "boolean") return grpcError(400, 3, "hold must be true or false");
      held = b.hold;
      if (!held) scheduleBlock();
      return Response.json({ hold: held, height });
    }
    if (path === "/_local/blocks") {
      const count = b.count ?? 1;
      if (!Number.isInteger(count) || count < 1 || count > 10_000) {
        return grpcError(400, 3, "count must be an integer from 1 to 10000");
      }
      if (b.withMempool !== undefined && typeof b.withMempool !== "boolean") {
        return grpcError(400, 3, "withMempool must be true or false");
      }
      return Response.json({ height: advanceBlocks(count, { withMempool: b.withMempool }) });
    }
    return grpcError(404, 5, `no such control endpoint: ${path}`);
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    let m: RegExpExecArray | null;
    if (req.method === "GET" && (m = /^\/cosmos\/auth\/v1beta1\/accounts\/([^/]+)$/.exec(path))) {
      const a = account(m[1]);
      if (!a) return grpcError(404, 5, `account ${m[1]} not found: key not found`);
      return Response.json(accountJson(a));
    }
    if (req.method === "GET" && (m = /^\/cosmos\/bank\/v1beta1\/balances\/([^/]+)$/.exec(path))) {
      const a = account(m[1]);
      return Response.json({
        balances: a && a.balance > 0n ? [{ denom: XPLA_DENOM, amount: a.balance.toString() }] : [],
        pagination: { next_key: null, total: "0" },
      });
    }
    if (req.method === "POST" && path === "/cosmos/tx/v1beta1/simulate") {
      const body = await req.json().catch(() => null);
      if (!body || typeof body.tx_bytes !== "string") {
        return grpcError(400, 3, "empty txBytes is not allowed: invalid request");
      }
      try {
        const gas = simulateTx(base64.decode(body.tx_bytes));
        return Response.json({
          gas_info: { gas_wanted: "0", gas_used: gas.toString() },
          result: { data: "", log: "", events: [], msg_responses: [] },
        });
      } catch (err) {
        if (err instanceof TxFailure) {
          return grpcError(500, 2, `${err.message} With gas wanted: '0' and gas used: '0' `);
        }
        throw err;
      }
    }
    if (req.method === "POST" && path === "/cosmos/tx/v1beta1/txs") {
      const body = await req.json().catch(() => null);
      if (!body || typeof body.tx_bytes !== "string") {
        return grpcError(400, 3, "invalid empty tx: invalid request");
      }
      const r = checkTx(base64.decode(body.tx_bytes));
      return Response.json({
        tx_response: {
          height: "0",
          txhash: r.hash,
          codespace: r.codespace,
          code: r.code,
          data: "",
          raw_log: r.rawLog,
          logs: [],
          info: "",
          gas_wanted: "0",
          gas_used: "0",
          tx: null,
          timestamp: "",
          events: [],
        },
      });
    }
    if (
      req.method === "GET" && (m = /^\/cosmos\/tx\/v1beta1\/txs\/([0-9A-Fa-f]{64})$/.exec(path))
    ) {
      const t = txs.get(m[1].toUpperCase());
      if (!t) return grpcError(404, 5, `tx not found: ${m[1]}`);
      return Response.json({
        tx: t.json,
        tx_response: {
          height: String(t.height),
          txhash: t.hash,
          codespace: t.codespace,
          code: t.code,
          data: "",
          raw_log: t.rawLog,
          logs: [],
          info: "",
          gas_wanted: t.gasWanted.toString(),
          gas_used: t.gasUsed.toString(),
          tx: { "@type": "/cosmos.tx.v1beta1.Tx", ...t.json },
          timestamp: new Date().toISOString(),
          events: [],
        },
      });
    }
    if (
      req.method === "GET" &&
      (m = /^\/cosmwasm\/wasm\/v1\/contract\/([^/]+)\/smart\/([^/]+)$/.exec(path))
    ) {
      return queryAnswer(m[1], m[2]);
    }
    if (
      req.method === "GET" && (m = /^\/cosmwasm\/wasm\/v1\/contracts\/creator\/([^/]+)$/.exec(path))
    ) {
      const list = byCreator.get(m[1]) ?? [];
      return Response.json({
        contract_addresses: list,
        pagination: { next_key: null, total: String(list.length) },
      });
    }
    if (req.method === "GET" && (m = /^\/cosmwasm\/wasm\/v1\/contract\/([^/]+)$/.exec(path))) {
      const c = contracts.get(m[1]);
      if (!c) return grpcError(404, 5, `no such contract: ${m[1]}: not found`);
      return Response.json({
        address: c.address,
        contract_info: { code_id: "1", creator: c.creator, admin: "", label: c.label },
      });
    }
    if (req.method === "POST" && path.startsWith("/_local/")) return await control(req, path);
    if (req.method === "GET" && path === "/cosmos/base/tendermint/v1beta1/blocks/latest") {
      const header = { chain_id: chainId, height: String(height), time: new Date().toISOString() };
      return Response.json({ block_id: {}, block: { header }, sdk_block: { header } });
    }
    if (req.method === "GET" && path === "/cosmos/base/tendermint/v1beta1/node_info") {
      return Response.json({ default_node_info: { network: chainId } });
    }
    return grpcError(501, 12, `Not Implemented: ${req.method} ${path}`);
  }

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen() {} },
    async (req) => {
      try {
        return await handle(req);
      } catch (err) {
        return grpcError(500, 13, `internal: ${(err as Error).message}`);
      }
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    chainId,
    accounts,
    contracts,
    fund,
    instantiate: addContract,
    query(contract, msg) {
      const c = contracts.get(contract);
      if (!c) throw new Error(`no contract ${contract}`);
      return query(c, msg as never, lookup);
    },
    holdBlocks(hold) {
      held = hold;
      if (!hold) scheduleBlock();
    },
    advanceBlocks,
    height: () => height,
    async close() {
      if (timer !== undefined) clearTimeout(timer);
      await server.shutdown();
    },
  };
}
