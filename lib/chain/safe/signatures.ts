/**
 * Owner signatures over a Safe transaction hash: each is recovered either as a signature over the
 * raw hash (v 27/28) or as an eth_sign / personal-message signature (v 31/32, or 27/28 when only
 * that reading names an owner, in which case v is raised by 4 as the Safe expects). The result is
 * the concatenation the Safe's `checkSignatures` wants: sorted by owner address, ascending.
 */
import { concat, type Hex, isHex, recoverAddress, recoverMessageAddress, toHex } from "viem";
import { DomainError } from "../../errors.ts";

/** One accepted signature. */
export interface OwnerSignature {
  owner: Hex;
  /** 65 bytes r, s, v with v as the Safe reads it (27/28 raw hash, 31/32 eth_sign). */
  signature: Hex;
  kind: "hash" | "eth_sign";
}

function fail(code: string, message: string, kind: "invalid" | "forbidden" = "invalid"): never {
  throw new DomainError(kind, code, message);
}

async function recoverOne(hash: Hex, value: string, index: number, owners: Set<string>) {
  const field = `signatures[${index}]`;
  if (typeof value !== "string" || !isHex(value) || value.length !== 132) {
    fail("MULTISIG_SIGNATURE_INVALID", `${field} must be 0x + 130 hex digits (r, s, v)`);
  }
  const body = value.slice(0, 130) as Hex;
  let v = parseInt(value.slice(130), 16);
  if (v === 0 || v === 1) v += 27;
  const withV = (n: number) => concat([body, toHex(n, { size: 1 })]);
  const recover = async (kind: "hash" | "eth_sign", raw: number): Promise<Hex | null> => {
    try {
      return kind === "hash"
        ? await recoverAddress({ hash, signature: withV(raw) })
        : await recoverMessageAddress({ message: { raw: hash }, signature: withV(raw) });
    } catch {
      return null;
    }
  };
  if (v === 31 || v === 32) {
    const owner = await recover("eth_sign", v - 4);
    if (owner && owners.has(owner.toLowerCase())) {
      return { owner, signature: withV(v), kind: "eth_sign" as const };
    }
    if (!owner) fail("MULTISIG_SIGNATURE_INVALID", `${field} is not a valid signature`);
    return fail(
      "MULTISIG_NOT_OWNER",
      `${field} was signed by ${owner}, who is not an owner of this wallet`,
      "forbidden",
    );
  }
  if (v !== 27 && v !== 28) {
    fail(
      "MULTISIG_SIGNATURE_INVALID",
      `${field} has v = ${v}; expected 27 or 28 (raw hash) or 31 or 32 (eth_sign)`,
    );
  }
  const direct = await recover("hash", v);
  if (direct && owners.has(direct.toLowerCase())) {
    return { owner: direct, signature: withV(v), kind: "hash" as const };
  }
  const personal = await recover("eth_sign", v);
  if (personal && owners.has(personal.toLowerCase())) {
    return { owner: personal, signature: withV(v + 4), kind: "eth_sign" as const };
  }
  if (!direct && !personal) fail("MULTISIG_SIGNATURE_INVALID", `${field} is not a valid signature`);
  return fail(
    "MULTISIG_NOT_OWNER",
    `${field} is not from an owner of this wallet (it recovers to ${direct} over the hash` +
      ` or ${personal} as a personal message)`,
    "forbidden",
  );
}

/**
 * Checks the count (exactly `threshold`), recovers each signature to a distinct owner and returns
 * them sorted by owner, with the concatenated bytes for `execTransaction`.
 */
export async function ownerSignatures(
  hash: Hex,
  signatures: readonly string[],
  wallet: { owners: readonly string[]; threshold: number },
): Promise<{ accepted: OwnerSignature[]; packed: Hex }> {
  if (signatures.length !== wallet.threshold) {
    fail(
      "MULTISIG_SIGNATURE_COUNT",
      `signatures must hold exactly ${wallet.threshold} signatures (the wallet's threshold); got ${signatures.length}`,
    );
  }
  const owners = new Set(wallet.owners.map((o) => o.toLowerCase()));
  const accepted: OwnerSignature[] = [];
  const byOwner = new Map<string, number>();
  for (let i = 0; i < signatures.length; i++) {
    const one = await recoverOne(hash, signatures[i], i, owners);
    const first = byOwner.get(one.owner.toLowerCase());
    if (first !== undefined) {
      fail(
        "MULTISIG_DUPLICATE_SIGNER",
        `signatures[${i}] is from ${one.owner}, who already signed in signatures[${first}]`,
      );
    }
    byOwner.set(one.owner.toLowerCase(), i);
    accepted.push(one);
  }
  accepted.sort((a, b) => {
    const x = BigInt(a.owner), y = BigInt(b.owner);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return { accepted, packed: concat(accepted.map((a) => a.signature)) };
}
