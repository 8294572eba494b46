/**
 * The XPLA side of `deno task wallet` (dev/wallet.ts): keys you hold yourself, a bank send signed
 * with one (SIGN_MODE_DIRECT, so the chain learns the account's public key: a multisig member must
 * have sent once), and broadcasting tx bytes as the multisig assembly answers them. Talks to the
 * LCD at XPLA_LCD_URL (chain XPLA_CHAIN_ID) and waits for inclusion.
 */
import type { Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { base64 } from "@scure/base";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { TxBody } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { Any } from "cosmjs-types/google/protobuf/any";
import { addressOfPublicKey, publicKeyOf, signEthSecp256k1 } from "../lib/chain/xpla/keys.ts";
import {
  encodeAuthInfo,
  encodeSignDoc,
  encodeTxRaw,
  ethPubKeyAny,
  XPLA_DENOM,
} from "../lib/chain/xpla/tx.ts";

const lcd = (Deno.env.get("XPLA_LCD_URL") ?? "http://127.0.0.1:1317").split(",")[0].trim();
const chainId = Deno.env.get("XPLA_CHAIN_ID") ?? "localxpla_37-1";
const GAS = 200_000n;
const GAS_PRICE = 850_000_000_000n;

/** A new key: "<privateKey> <xpla1… address>". */
export function xplaNew(): string {
  const privateKey = generatePrivateKey();
  return `${privateKey} ${addressOfPublicKey(publicKeyOf(privateKey))}`;
}

/** Sends `amount` axpla from the key's account to `to`; answers the tx hash once included. */
export async function xplaSend(privateKey: Hex, to: string, amount: bigint): Promise<string> {
  const publicKey = publicKeyOf(privateKey);
  const from = addressOfPublicKey(publicKey);
  const res = await fetch(`${lcd}/cosmos/auth/v1beta1/accounts/${from}`);
  const json = await res.json();
  if (!res.ok) throw new Error(`account ${from}: ${json.message ?? res.status} (fund it first)`);
  const account = json.account.base_account ?? json.account;
  const bodyBytes = TxBody.encode(TxBody.fromPartial({
    messages: [Any.fromPartial({
      typeUrl: "/cosmos.bank.v1beta1.MsgSend",
      value: MsgSend.encode({
        fromAddress: from,
        toAddress: to,
        amount: [{ denom: XPLA_DENOM, amount: amount.toString() }],
      }).finish(),
    })],
  })).finish();
  const authInfoBytes = encodeAuthInfo({
    publicKey: ethPubKeyAny(publicKey),
    sequence: BigInt(account.sequence),
    gasLimit: GAS,
    feeAmount: GAS * GAS_PRICE,
  });
  const signDoc = encodeSignDoc({
    bodyBytes,
    authInfoBytes,
    chainId,
    accountNumber: BigInt(account.account_number),
  });
  const signature = signEthSecp256k1(privateKey, signDoc);
  return await xplaBroadcast(
    base64.encode(encodeTxRaw({ bodyBytes, authInfoBytes, signatures: [signature] })),
  );
}

/** Broadcasts base64 tx bytes; answers the hash once included with code 0, else throws. */
export async function xplaBroadcast(txBytes: string): Promise<string> {
  const res = await fetch(`${lcd}/cosmos/tx/v1beta1/txs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tx_bytes: txBytes, mode: "BROADCAST_MODE_SYNC" }),
  });
  const sent = (await res.json()).tx_response;
  if (!sent || sent.code !== 0) throw new Error(`refused: ${sent?.raw_log ?? res.status}`);
  for (let i = 0; i < 300; i++) {
    const found = await fetch(`${lcd}/cosmos/tx/v1beta1/txs/${sent.txhash}`);
    const json = await found.json();
    if (found.ok) {
      if (json.tx_response.code !== 0) throw new Error(`failed: ${json.tx_response.raw_log}`);
      return sent.txhash;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${sent.txhash} was not included within 30 s`);
}
