/**
 * A small local wallet for trying the API by hand (the README walk-through uses it): make a key,
 * sign a Safe transaction hash (raw or as a personal message), sign and send an unsigned
 * transaction the API returned. Keys stay on this machine; nothing here talks to the service.
 *
 *   deno task wallet new                         -> "<privateKey> <address>"
 *   deno task wallet sign-hash <key> <hash>      -> signature over the raw 32-byte hash
 *   deno task wallet sign-message <key> <hash>   -> personal-message (eth_sign) signature
 *   deno task wallet send <key> <rawTx>          -> signs, sends to POLYGON_RPC_URL, waits, prints the hash
 */
import {
  createPublicClient,
  type Hex,
  http,
  parseTransaction,
  type TransactionSerializableEIP1559,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const [command, key, value] = Deno.args;

function usage(): never {
  console.error(
    "usage: wallet new | sign-hash <key> <hash> | sign-message <key> <hash> | send <key> <rawTx>",
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
  default:
    usage();
}
