/**
 * A small local wallet for trying the API by hand (the README walk-through uses it): make a key,
 * sign a Safe transaction hash (raw or as a personal message), sign and send an unsigned
 * transaction the API returned. Keys stay on this machine; nothing here talks to the service.
 *
 *   deno task wallet new                         -> "<privateKey> <address>"
 *   deno task wallet sign-hash <key> <hash>      -> signature over the raw 32-byte hash
 *   deno task wallet sign-message <key> <hash>   -> personal-message (eth_sign) signature
 *   deno task wallet send <key> <rawTx>          -> signs, sends to POLYGON_RPC_URL, waits, prints the hash
 *
 * XPLA (the LCD at XPLA_LCD_URL, chain XPLA_CHAIN_ID; default the local LCD of the README):
 *
 *   deno task wallet xpla-new                        -> "<privateKey> <xpla1… address>"
 *   deno task wallet xpla-send <key> <to> <axpla>    -> a bank send signed with the key, waits, prints the hash
 *   deno task wallet xpla-broadcast <base64 tx>      -> broadcasts tx bytes as they are, waits, prints the hash
 *
 * `sign-hash` also signs an XPLA `hashedTx` (a multisig member's signature).
 */
import {
  createPublicClient,
  type Hex,
  http,
  parseTransaction,
  type TransactionSerializableEIP1559,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { xplaBroadcast, xplaNew, xplaSend } from "./xpla_wallet.ts";

const [command, key, value, extra] = Deno.args;

function usage(): never {
  console.error(
    "usage: wallet new | sign-hash <key> <hash> | sign-message <key> <hash> | send <key> <rawTx>" +
      " | xpla-new | xpla-send <key> <to> <axpla> | xpla-broadcast <base64 tx>",
  );
  Deno.exit(2);
}

switch (command) {
  case "new": {
    const privateKey = generatePrivateKey();
    console.log(`${privateKey} ${privateKeyToAccount(privateKey).address}`);
    break;
  }
  case "sign-hash":
    if (!key || !value) usage();
    console.log(await privateKeyToAccount(key as Hex).sign({ hash: value as Hex }));
    break;
  case "sign-message":
    if (!key || !value) usage();
    console.log(
      await privateKeyToAccount(key as Hex).signMessage({ message: { raw: value as Hex } }),
    );
    break;
  case "send": {
    if (!key || !value) usage();
    const rpc = Deno.env.get("POLYGON_RPC_URL") ?? "http://127.0.0.1:8545";
    const client = createPublicClient({ transport: http(rpc) });
    const tx = parseTransaction(value as Hex) as TransactionSerializableEIP1559;
    const signed = await privateKeyToAccount(key as Hex).signTransaction(tx);
    const hash = await client.sendRawTransaction({ serializedTransaction: signed });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") {
      console.error(`transaction ${hash} reverted`);
      Deno.exit(1);
    }
    console.log(hash);
    break;
  }
  case "xpla-new":
    console.log(xplaNew());
    break;
  case "xpla-send":
    if (!key || !value || !/^\d+$/.test(extra ?? "")) usage();
    console.log(await xplaSend(key as Hex, value, BigInt(extra)));
    break;
  case "xpla-broadcast":
    if (!key) usage();
    console.log(await xplaBroadcast(key));
    break;
  default:
    usage();
}
