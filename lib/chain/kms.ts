/**
 * Key management: wallet private keys encrypted at rest with AES-GCM under a key derived from
 * the master key, decrypted only for the moment of signing. `Kms` is the seam a cloud KMS
 * (e.g. AWS KMS secp256k1 keys) can implement without touching callers.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type Hex, hexToBytes, type TransactionSerializableEIP1559 } from "viem";
import { secp256k1 } from "@noble/curves/secp256k1";
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { deriveSealKey, openText, sealText } from "../crypto/seal.ts";

/** What the chain code needs from key management. */
export interface Kms {
  /** Stores a key (generated when none is given) for a game; returns its address only. */
  createWallet(gameIndex: number, privateKey?: Hex): Promise<{ address: Hex }>;
  /** True when a signing key for the address is held for that game (another game's key: false). */
  holds(gameIndex: number, address: string): Promise<boolean>;
  /** Signs with the game's held key for the address; throws KEY_NOT_HELD otherwise. */
  signTransaction(
    gameIndex: number,
    address: string,
    tx: TransactionSerializableEIP1559,
  ): Promise<Hex>;
  /** Signs a 32-byte digest with the held key: 64 bytes r||s, low s (Cosmos ethsecp256k1). */
  signDigest(gameIndex: number, address: string, digest: Uint8Array): Promise<Uint8Array>;
  /** The compressed (33-byte) public key of a held key. */
  publicKey(gameIndex: number, address: string): Promise<Uint8Array>;
}

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

const PURPOSE = "kms-wallet-key";

/** Encrypts a private key; the address is bound as associated data so rows cannot be swapped. */
export async function sealKey(masterKey: string, address: string, privateKey: Hex) {
  return await sealText(await deriveSealKey(masterKey, PURPOSE), address.toLowerCase(), privateKey);
}

/** Decrypts a sealed key; throws when the master key or address does not match. */
export async function openKey(masterKey: string, address: string, sealed: string): Promise<Hex> {
  const key = await deriveSealKey(masterKey, PURPOSE);
  return await openText(key, address.toLowerCase(), sealed) as Hex;
}

/** The database-backed KMS: sealed keys in `chain_wallets`. */
export function createLocalKms(db: Sql, masterKey: string): Kms {
  // A key is only ever used for the game that holds it: a wallet of another game is "not held".
  async function sealed(gameIndex: number, address: string): Promise<string | undefined> {
    const [row] = await db.query<{ key_ciphertext: string }>(
      "select key_ciphertext from chain_wallets where address = $1 and game_index = $2",
      [address.toLowerCase(), gameIndex],
    );
    return row?.key_ciphertext;
  }
  async function heldKey(gameIndex: number, address: string): Promise<Hex> {
    const blob = await sealed(gameIndex, address);
    if (!blob) {
      throw new DomainError(
        "invalid",
        "KEY_NOT_HELD",
        `no signing key is held for ${address}; send isSend false and sign the rawTx yourself`,
      );
    }
    return await openKey(masterKey, address, blob);
  }
  return {
    async createWallet(gameIndex, privateKey) {
      if (privateKey !== undefined && !PRIVATE_KEY.test(privateKey)) {
        throw new DomainError("invalid", "VALIDATION_FAILED", "privateKey must be 0x + 64 hex");
      }
      const key = privateKey ?? generatePrivateKey();
      const address = privateKeyToAccount(key).address;
      const rows = await db.query(
        `insert into chain_wallets (address, game_index, key_ciphertext) values ($1, $2, $3)
         on conflict (address) do nothing returning address`,
        [address.toLowerCase(), gameIndex, await sealKey(masterKey, address, key)],
      );
      if (rows.length === 0) {
        throw new DomainError("conflict", "WALLET_EXISTS", `wallet ${address} is already held`);
      }
      return { address };
    },
    async holds(gameIndex, address) {
      return (await sealed(gameIndex, address)) !== undefined;
    },
    async signTransaction(gameIndex, address, tx) {
      const account = privateKeyToAccount(await heldKey(gameIndex, address));
      return await account.signTransaction(tx);
    },
    async signDigest(gameIndex, address, digest) {
      const key = hexToBytes(await heldKey(gameIndex, address));
      return secp256k1.sign(digest, key, { lowS: true }).toCompactRawBytes();
    },
    async publicKey(gameIndex, address) {
      return secp256k1.getPublicKey(hexToBytes(await heldKey(gameIndex, address)), true);
    },
  };
}
