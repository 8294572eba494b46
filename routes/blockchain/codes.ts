/**
 * The blockchain API's error catalog: every non-zero `code`, its HTTP status and meaning.
 * Domain error codes from lib/ map here; anything unlisted falls back to its kind's code.
 * README's "Blockchain error codes" table mirrors this list.
 */
import type { ErrorKind } from "../../lib/errors.ts";

/** One catalog entry. */
export interface CatalogEntry {
  code: number;
  status: number;
  meaning: string;
}

/** Catalog entries by domain error code. */
export const blockchainCatalog: Record<string, CatalogEntry> = {
  VALIDATION_FAILED: { code: 1000, status: 400, meaning: "request body, path or query invalid" },
  BAD_REQUEST: { code: 1000, status: 400, meaning: "malformed JSON or wrong content type" },
  BODY_TOO_LARGE: { code: 1000, status: 413, meaning: "request body too large" },
  TOKEN_MISSING: { code: 1001, status: 401, meaning: "Authorization bearer token missing" },
  TOKEN_INVALID: { code: 1002, status: 401, meaning: "token invalid or tampered" },
  TOKEN_EXPIRED: { code: 1003, status: 401, meaning: "token expired" },
  INVALID_CLIENT: { code: 1004, status: 401, meaning: "clientId or clientSecret wrong" },
  REFRESH_REUSED: { code: 1005, status: 401, meaning: "refresh token already used" },
  NETWORK_INVALID: { code: 1006, status: 400, meaning: "x-network missing or not polygon/xpla" },
  APPID_MISMATCH: { code: 1007, status: 403, meaning: "x-appid missing or not the token's app" },
  NETWORK_UNSUPPORTED: { code: 1008, status: 501, meaning: "operation not available on network" },
  NOT_FOUND: { code: 1404, status: 404, meaning: "no such route or resource" },
  CONTRACT_NOT_FOUND: { code: 2001, status: 404, meaning: "contract not registered for this game" },
  CONTRACT_TYPE_MISMATCH: { code: 2002, status: 400, meaning: "contract is of another type" },
  NOT_NFT_OWNER: { code: 2003, status: 403, meaning: "from does not own the NFT" },
  NFT_ALREADY_LOCKED: { code: 2004, status: 409, meaning: "NFT already locked" },
  NFT_NOT_LOCKED: { code: 2005, status: 409, meaning: "NFT not locked" },
  POOL_EXHAUSTED: { code: 2006, status: 409, meaning: "convert pool lacks tokens or currency" },
  TOO_MANY_TOKENS: {
    code: 2007,
    status: 400,
    meaning: "more tokens than one mint takes (50 polygon, 200 xpla)",
  },
  DUPLICATE_TOKEN_ID: { code: 2008, status: 409, meaning: "token id repeated or already minted" },
  TOKEN_NOT_FOUND: { code: 2009, status: 404, meaning: "token id not minted" },
  KEY_NOT_HELD: { code: 2010, status: 400, meaning: "isSend true but no key held for from" },
  TX_REVERTED: { code: 2011, status: 422, meaning: "simulation reverted (reason in message)" },
  DUPLICATE_REQUEST_ID: { code: 2012, status: 409, meaning: "requestId already used" },
  REQUEST_NOT_FOUND: { code: 2013, status: 404, meaning: "requestId unknown for this app" },
  TX_HASH_TAKEN: { code: 2014, status: 409, meaning: "txHash attached to another request" },
  CALLBACK_URL_REFUSED: { code: 2015, status: 400, meaning: "callbackUrl invalid or private" },
  INSUFFICIENT_FUNDS: { code: 2016, status: 400, meaning: "sender lacks native currency for gas" },
  MULTISIG_NOT_FOUND: { code: 2101, status: 404, meaning: "unknown multi-signature wallet" },
  MULTISIG_NOT_OWNER: { code: 2102, status: 403, meaning: "signature not from a wallet owner" },
  MULTISIG_DUPLICATE_SIGNER: { code: 2103, status: 400, meaning: "same owner signed twice" },
  MULTISIG_SIGNATURE_COUNT: { code: 2104, status: 400, meaning: "signature count != threshold" },
  MULTISIG_SIGNATURE_INVALID: { code: 2105, status: 400, meaning: "malformed signature" },
  MULTISIG_THRESHOLD_INVALID: { code: 2106, status: 400, meaning: "threshold out of range" },
  MULTISIG_NOT_DEPLOYED: { code: 2107, status: 409, meaning: "wallet not yet on chain" },
  MULTISIG_TX_UNKNOWN: {
    code: 2108,
    status: 404,
    meaning: "tx not prepared by this service for this wallet",
  },
  MULTISIG_SEND_UNSUPPORTED: {
    code: 2109,
    status: 400,
    meaning: "isSend true with a multi-signature sender",
  },
  MULTISIG_NONCE_MISMATCH: {
    code: 2110,
    status: 409,
    meaning: "Safe nonce already used, or earlier prepared transactions pending",
  },
  MULTISIG_EXISTS: { code: 2111, status: 409, meaning: "wallet already deployed" },
  SAFE_CONTRACTS_MISSING: { code: 2112, status: 409, meaning: "Safe contracts not on this chain" },
  // XPLA accounts.
  ACCOUNT_NOT_FOUND: { code: 2120, status: 400, meaning: "xpla account unknown (never funded)" },
  ACCOUNT_INACTIVE: { code: 2121, status: 400, meaning: "xpla account has no public key yet" },
  SIGNER_NOT_ACTIVE: {
    code: 2122,
    status: 400,
    meaning: "multisig signer is not an active account",
  },
  // Idempotency-Key.
  IDEMPOTENCY_KEY_INVALID: {
    code: 2130,
    status: 400,
    meaning: "Idempotency-Key not 1-255 visible ASCII characters",
  },
  IDEMPOTENCY_KEY_REUSED: {
    code: 2131,
    status: 409,
    meaning: "Idempotency-Key already used with another request (method, path, network or body)",
  },
  IDEMPOTENCY_KEY_IN_USE: {
    code: 2132,
    status: 409,
    meaning: "the first request with this Idempotency-Key is still running; retry later",
  },
  CHAIN_UNAVAILABLE: { code: 5031, status: 503, meaning: "blockchain node unreachable" },
  WALLET_BUSY: { code: 5032, status: 503, meaning: "wallet's send lock busy; retry" },
  CHAIN_ERROR: { code: 5021, status: 502, meaning: "blockchain node answered with an error" },
};

const byKind: Record<ErrorKind, CatalogEntry> = {
  invalid: { code: 1000, status: 400, meaning: "invalid request" },
  unauthorized: { code: 1002, status: 401, meaning: "unauthorized" },
  forbidden: { code: 1007, status: 403, meaning: "forbidden" },
  not_found: { code: 1404, status: 404, meaning: "not found" },
  conflict: { code: 1409, status: 409, meaning: "conflict with current state" },
  rate_limited: { code: 1429, status: 429, meaning: "too many requests" },
  unavailable: { code: 5003, status: 503, meaning: "dependency unavailable" },
  upstream: { code: 5002, status: 502, meaning: "dependency answered wrongly" },
  internal: { code: 5000, status: 500, meaning: "internal error" },
};

/** Looks up a domain code, falling back to its kind. */
export function catalogEntry(code: string, kind: ErrorKind): CatalogEntry {
  return blockchainCatalog[code] ?? byKind[kind];
}
