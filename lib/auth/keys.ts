/** The ES256 key that signs access, refresh and API-key tokens, and its public JWKS. */
import {
  calculateJwkThumbprint,
  type CryptoKey as JoseKey,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
} from "jose";

/** A loaded signing key with its key id and public JWK. */
export interface SigningKey {
  kid: string;
  privateKey: JoseKey;
  publicKey: JoseKey;
  publicJwk: JWK;
}

/** Generates a new ES256 private JWK (serialised) for first-run embedded mode. */
export async function generatePrivateJwk(): Promise<string> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  jwk.alg = "ES256";
  return JSON.stringify(jwk);
}

/** Loads the signing key from its serialised private JWK (JWT_PRIVATE_JWK). */
export async function loadSigningKey(serialised: string): Promise<SigningKey> {
  let jwk: JWK;
  try {
    jwk = JSON.parse(serialised);
  } catch {
    throw new Error("JWT_PRIVATE_JWK is not valid JSON");
  }
  if (jwk.kty !== "EC" || jwk.crv !== "P-256" || !jwk.d) {
    throw new Error("JWT_PRIVATE_JWK must be a P-256 EC private key (ES256)");
  }
  const { d: _d, ...pub } = jwk;
  const kid = jwk.kid ?? await calculateJwkThumbprint(pub);
  const publicJwk: JWK = {
    kty: pub.kty,
    crv: pub.crv,
    x: pub.x,
    y: pub.y,
    kid,
    alg: "ES256",
    use: "sig",
  };
  const privateKey = await importJWK({ ...jwk, alg: "ES256" }, "ES256") as JoseKey;
  const publicKey = await importJWK(publicJwk, "ES256") as JoseKey;
  return { kid, privateKey, publicKey, publicJwk };
}
