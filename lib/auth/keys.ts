/**
 * The ES256 key that signs access, refresh and API-key tokens, the earlier public keys still
 * accepted after a rotation, and the public JWKS of both.
 */
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  type CryptoKey as JoseKey,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTVerifyGetKey,
} from "jose";

/** A loaded signing key with its key id, and the verifier of every accepted key. */
export interface SigningKey {
  kid: string;
  privateKey: JoseKey;
  /** The public JWKs tokens may be signed with: the current key first, then earlier ones. */
  publicJwks: JWK[];
  /** Picks the verification key by the token's `kid`. */
  verifyKey: JWTVerifyGetKey;
}

/** Generates a new ES256 private JWK (serialised) for first-run embedded mode. */
export async function generatePrivateJwk(): Promise<string> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  jwk.alg = "ES256";
  return JSON.stringify(jwk);
}

async function publicPart(jwk: JWK, what: string): Promise<JWK> {
  if (jwk.kty !== "EC" || jwk.crv !== "P-256" || !jwk.x || !jwk.y) {
    throw new Error(`${what} must be a P-256 EC key (ES256)`);
  }
  const pub = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  const kid = jwk.kid ?? await calculateJwkThumbprint(pub);
  return { ...pub, kid, alg: "ES256", use: "sig" };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} is not valid JSON`);
  }
}

/**
 * Loads the signing key from its serialised private JWK (JWT_PRIVATE_JWK) and, optionally, the
 * public keys of earlier signing keys (JWT_PREVIOUS_PUBLIC_JWKS: a JWKS or an array of JWKs) so
 * that tokens and never-expiring API keys they signed keep working after a rotation.
 */
export async function loadSigningKey(serialised: string, previous?: string): Promise<SigningKey> {
  const jwk = parseJson(serialised, "JWT_PRIVATE_JWK") as JWK;
  if (!jwk || typeof jwk !== "object" || !jwk.d) {
    throw new Error("JWT_PRIVATE_JWK must be a P-256 EC private key (ES256)");
  }
  const current = await publicPart(jwk, "JWT_PRIVATE_JWK");
  const privateKey = await importJWK({ ...jwk, alg: "ES256" }, "ES256") as JoseKey;
  const earlier: JWK[] = [];
  if (previous) {
    const parsed = parseJson(previous, "JWT_PREVIOUS_PUBLIC_JWKS") as JWK[] | { keys?: JWK[] };
    const list = Array.isArray(parsed) ? parsed : parsed?.keys;
    if (!Array.isArray(list)) {
      throw new Error("JWT_PREVIOUS_PUBLIC_JWKS must be a JWKS or an array of public JWKs");
    }
    for (const k of list) {
      // Only public parts are kept, even when a private JWK was pasted by mistake.
      const pub = await publicPart(k, "JWT_PREVIOUS_PUBLIC_JWKS entry");
      if (pub.kid !== current.kid) earlier.push(pub);
    }
  }
  const publicJwks = [current, ...earlier];
  return {
    kid: current.kid!,
    privateKey,
    publicJwks,
    verifyKey: createLocalJWKSet({ keys: publicJwks }),
  };
}
