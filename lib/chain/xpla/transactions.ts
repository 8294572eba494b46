/**
 * XPLA transaction creation: CosmWasm execute messages simulated for gas, then either signed
 * with the held key (SIGN_MODE_DIRECT, with a timeout height XPLA_TIMEOUT_BLOCKS past the latest
 * block) and broadcast under the wallet's Postgres send lock (PENDING), or handed back unsigned
 * (WAITING). Records go to `chain_txs` like Polygon's; each broadcast to `chain_tx_attempts`.
 */
import { hexToBytes, keccak256 } from "viem";
import { base64 } from "@scure/base";
import type { Services } from "../../services.ts";
import { DomainError } from "../../errors.ts";
import { withSendLock } from "../send_lock.ts";
import { trackTransaction } from "../tracker.ts";
import { assertNewRequestId } from "../transactions.ts";
import type { TxCreation, TxRequest, TxType } from "../tx_request.ts";
import { insertRecord, insertRecords, txRecordStatement } from "../tx_insert.ts";
import { txRecordsChanged } from "../tx_list_cache.ts";
import {
  broadcast,
  getAccount,
  latestHeight,
  scrubLcdText,
  simulate,
  type XplaAccount,
  type XplaChain,
} from "./lcd.ts";
import { xplaToHex } from "./keys.ts";
import { attemptStatement } from "./attempts.ts";
import { findXplaMultisig, multisigProbe, multisigSignDoc, type XplaMultisig } from "./multisig.ts";
import { stdSignBytes } from "./multisig_keys.ts";
import {
  type ContractCall,
  cosmosTxHash,
  describeUnsigned,
  encodeAuthInfo,
  encodeBody,
  encodeSignDoc,
  encodeTxRaw,
  ethPubKeyAny,
  feeFor,
} from "./tx.ts";

/** The configured XPLA chain, or the documented "not configured" error. */
export function requireXpla(s: Services): XplaChain {
  if (!s.xpla) {
    throw new DomainError("unavailable", "CHAIN_UNAVAILABLE", "XPLA_LCD_URL is not configured");
  }
  return s.xpla;
}

/** What an XPLA request executes. */
export interface XplaIntent {
  type: TxType;
  /** Action name used in error messages, e.g. "mint". */
  action: string;
  /** Sender (`xpla1…`). */
  from: string;
  /** The contract the record shows. */
  contract: string;
  calls: ContractCall[];
}

/** A built, unsigned transaction. */
export interface BuiltTx {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  signDoc: Uint8Array;
  gasLimit: bigint;
  feeAmount: bigint;
  account: XplaAccount;
  publicKey?: Uint8Array;
  /** The last block that may include it (0: none). */
  timeoutHeight: bigint;
}

/** Simulates the calls for gas and builds body, auth info and sign doc at the account's sequence. */
export async function buildXplaTx(
  chain: XplaChain,
  intent: { from: string; calls: ContractCall[]; action: string; timeoutHeight?: bigint },
  account: XplaAccount,
  publicKey: Uint8Array | undefined,
): Promise<BuiltTx> {
  const bodyBytes = encodeBody(intent.from, intent.calls, { timeoutHeight: intent.timeoutHeight });
  const pk = publicKey ? ethPubKeyAny(publicKey) : undefined;
  const probe = encodeTxRaw({
    bodyBytes,
    authInfoBytes: encodeAuthInfo({
      publicKey: pk,
      sequence: account.sequence,
      gasLimit: 0n,
      feeAmount: 0n,
    }),
    signatures: [new Uint8Array(0)],
  });
  const used = await simulate(chain, probe, intent.action);
  const gasLimit = BigInt(Math.ceil(Number(used) * chain.gasAdjustment));
  const feeAmount = feeFor(gasLimit, chain.gasPrice);
  const authInfoBytes = encodeAuthInfo({
    publicKey: pk,
    sequence: account.sequence,
    gasLimit,
    feeAmount,
  });
  const signDoc = encodeSignDoc({
    bodyBytes,
    authInfoBytes,
    chainId: chain.chainId,
    accountNumber: account.accountNumber,
  });
  return {
    bodyBytes,
    authInfoBytes,
    signDoc,
    gasLimit,
    feeAmount,
    account,
    publicKey,
    timeoutHeight: intent.timeoutHeight ?? 0n,
  };
}

/** The account of a sender, or a clear error when the chain does not know it. */
export async function requireAccount(chain: XplaChain, address: string, field = "from") {
  const account = await getAccount(chain, address);
  if (!account) {
    throw new DomainError(
      "invalid",
      "ACCOUNT_NOT_FOUND",
      `${field} ${address} has no account on xpla (never funded)`,
    );
  }
  return account;
}

/**
 * The sequence for a new transaction. The LCD answers the committed sequence (as of the last
 * block), so this sender's transactions still PENDING (accepted, not yet included) are counted on
 * top of it.
 */
async function nextSequence(s: Services, chain: XplaChain, account: XplaAccount): Promise<bigint> {
  const [row] = await s.db.query<{ next: string | number | null }>(
    `select max(nonce) + 1 as next from chain_txs
      where network = 'xpla' and chain_id = $1 and from_address = $2 and status = 'PENDING'
        and tx_hash is not null`,
    [chain.lockId, account.address],
  );
  const pending = row?.next === null || row?.next === undefined ? 0n : BigInt(row.next);
  return pending > account.sequence ? pending : account.sequence;
}

/** The sequence a chain error names as expected ("account sequence mismatch, expected N"). */
function expectedSequence(text: string): bigint | null {
  const m = /account sequence mismatch, expected (\d+)/.exec(text);
  return m ? BigInt(m[1]) : null;
}

/** Creates the transaction for a request: sent (PENDING) or returned unsigned (WAITING). */
export async function createXplaTransaction(
  s: Services,
  req: TxRequest,
  build: (requestId: string) => XplaIntent | Promise<XplaIntent>,
): Promise<TxCreation> {
  const chain = requireXpla(s);
  const requestId = req.requestId ?? crypto.randomUUID();
  if (req.requestId) await assertNewRequestId(s, req.requestId);
  const intent = await build(requestId);
  const keyAddress = xplaToHex(intent.from);
  const multisig = await findXplaMultisig(s.db, req.gameIndex, intent.from);
  if (req.isSend && multisig) {
    throw new DomainError(
      "invalid",
      "MULTISIG_SEND_UNSUPPORTED",
      `from ${intent.from} is a multi-signature wallet: send isSend false, collect the members' signatures and assemble with /core/v1/multisig/tx`,
    );
  }
  if (req.isSend && !(await s.kms.holds(req.gameIndex, keyAddress))) {
    throw new DomainError(
      "invalid",
      "KEY_NOT_HELD",
      `isSend is true but no signing key is held for from ${intent.from}; send isSend false and sign rawTx yourself`,
    );
  }
  const now = new Date(s.clock.now());
  const fields = (status: string, hash: string | null, sequence: bigint) => ({
    requestId,
    req,
    chainId: chain.lockId,
    type: intent.type,
    status,
    from: intent.from,
    contract: intent.contract,
    hash,
    nonce: Number(sequence),
    now,
  });
  const record = (status: string, hash: string | null, sequence: bigint) =>
    insertRecord(s, fields(status, hash, sequence));
  // The PENDING record and its first attempt, written together before the broadcast.
  const recordSent = (a: { hash: string; sequence: bigint; tx: BuiltTx; txBytes: Uint8Array }) =>
    insertRecords(s, req.appid, requestId, [
      txRecordStatement(fields("PENDING", a.hash, a.sequence)),
      attemptStatement({
        requestId,
        seq: 0,
        kind: "send",
        txHash: a.hash,
        nonce: a.sequence,
        feeAmount: a.tx.feeAmount,
        timeoutHeight: a.tx.timeoutHeight,
        rawTx: base64.encode(a.txBytes),
        sentAt: now,
      }),
    ]);
  if (req.isSend) {
    const publicKey = await s.kms.publicKey(req.gameIndex, keyAddress);
    const hash = await withSendLock(
      s.db,
      { chainId: chain.lockId, address: intent.from },
      async () => {
        const account = await requireAccount(chain, intent.from);
        let sequence = await nextSequence(s, chain, account);
        const timeoutHeight = (await latestHeight(chain)) + BigInt(chain.timeoutBlocks);
        // One retry when the chain names another sequence (e.g. a transaction sent elsewhere).
        for (let attempt = 0;; attempt++) {
          let refused: string;
          try {
            const tx = await buildXplaTx(
              chain,
              { ...intent, timeoutHeight },
              { ...account, sequence },
              publicKey,
            );
            const signature = await s.kms.signDigest(
              req.gameIndex,
              keyAddress,
              hexToBytes(keccak256(tx.signDoc)),
            );
            const txBytes = encodeTxRaw({ ...tx, signatures: [signature] });
            const hash = cosmosTxHash(txBytes);
            await recordSent({ hash, sequence, tx, txBytes });
            try {
              const res = await broadcast(chain, txBytes);
              if (res.code === 0) return hash;
              refused = `code ${res.code}: ${scrubLcdText(res.raw_log)}`;
            } catch (err) {
              // Unreachable: the tx may have arrived, so the record stays for the tracker.
              if (err instanceof DomainError && err.code === "CHAIN_UNAVAILABLE") throw err;
              refused = err instanceof Error ? err.message : String(err);
            }
            try {
              await s.db.query("delete from chain_txs where request_id = $1", [requestId]);
            } finally {
              txRecordsChanged(s.db, req.appid);
            }
          } catch (err) {
            const expected = err instanceof DomainError ? expectedSequence(err.message) : null;
            if (attempt > 0 || expected === null || expected === sequence) throw err;
            sequence = expected;
            continue;
          }
          const expected = expectedSequence(refused);
          if (attempt > 0 || expected === null || expected === sequence) {
            throw new DomainError("invalid", "TX_REVERTED", `${intent.action} refused: ${refused}`);
          }
          sequence = expected;
        }
      },
    );
    s.defer(trackTransaction(s, requestId));
    return { txhash: hash, status: "PENDING", requestId };
  }
  if (multisig) {
    return await waitingMultisig(s, chain, { req, requestId, intent, multisig, record });
  }
  const committed = await requireAccount(chain, intent.from);
  const account = { ...committed, sequence: await nextSequence(s, chain, committed) };
  if (!account.publicKey) {
    throw new DomainError(
      "invalid",
      "ACCOUNT_INACTIVE",
      `from ${intent.from} has no public key on xpla yet (it has never sent a transaction)`,
    );
  }
  const tx = await buildXplaTx(chain, intent, account, account.publicKey);
  await record("WAITING", null, account.sequence);
  const rawTx = req.encoded ? base64.encode(tx.signDoc) : describeUnsigned({
    ...tx,
    sender: intent.from,
    calls: intent.calls,
    sequence: account.sequence,
    chainId: chain.chainId,
    accountNumber: account.accountNumber,
  });
  return { rawTx, requestId, status: "WAITING" };
}

/**
 * A multisig sender's WAITING request: the amino JSON sign document (its memo is the request
 * id, so the assembled transaction names its request) and keccak256 of its sorted JSON bytes,
 * which each member signs.
 */
async function waitingMultisig(s: Services, chain: XplaChain, w: {
  req: TxRequest;
  requestId: string;
  intent: XplaIntent;
  multisig: XplaMultisig;
  record: (status: string, hash: string | null, sequence: bigint) => Promise<void>;
}): Promise<TxCreation> {
  const committed = await requireAccount(chain, w.intent.from);
  const account = { ...committed, sequence: await nextSequence(s, chain, committed) };
  const used = await simulate(
    chain,
    multisigProbe(w.multisig, w.intent.calls, account.sequence),
    w.intent.action,
  );
  const gasLimit = BigInt(Math.ceil(Number(used) * chain.gasAdjustment));
  const { doc, hashedTx } = multisigSignDoc({
    chain,
    account,
    wallet: w.multisig,
    calls: w.intent.calls,
    gasLimit,
    feeAmount: feeFor(gasLimit, chain.gasPrice),
    memo: w.requestId,
  });
  await w.record("WAITING", null, account.sequence);
  const rawTx = w.req.encoded ? base64.encode(stdSignBytes(doc)) : { ...doc };
  return { rawTx, hashedTx, requestId: w.requestId, status: "WAITING" };
}
