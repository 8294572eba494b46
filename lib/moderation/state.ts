/**
 * Per-Services moderation state kept in memory: compiled detectors per project (rebuilt when
 * the project's list version changes) and opened secrets, plus the AES-GCM sealing of chat and
 * project secrets at rest under a key derived from the KMS master key.
 */
import type { Services } from "../services.ts";
import { compileDetector, type Detector, type DetectorOptions } from "../abuse/detector.ts";
import { deriveSealKey, openText, sealText } from "../crypto/seal.ts";
import { randomBytes } from "../crypto/hashing.ts";

const MAX_DETECTORS = 256;
const MAX_SECRETS = 4096;

/** In-memory caches of one Services instance. */
export interface ModerationState {
  detectors: Map<string, { version: number; detector: Detector }>;
  /** Projects whose newer detector is being compiled in the background. */
  rebuilding: Set<string>;
  secrets: Map<string, string>;
  sealKey?: Promise<CryptoKey>;
}

const states = new WeakMap<Services, ModerationState>();

/** The moderation state belonging to these services (created on first use). */
export function moderationState(services: Services): ModerationState {
  let state = states.get(services);
  if (!state) {
    state = { detectors: new Map(), rebuilding: new Set(), secrets: new Map() };
    states.set(services, state);
  }
  return state;
}

/**
 * The compiled detector of a project's lists at `version`; compiled once per version and
 * reused by every request until the lists change (least recently used projects are evicted).
 * When the lists changed elsewhere (another instance saved them), the detector of the older
 * version keeps answering while the new one is compiled after the response (services.defer),
 * so no request waits for a compile; only a project never seen by this instance compiles on
 * its first request.
 */
export function cachedDetector(
  services: Services,
  projectKey: string,
  version: number,
  lists: () => DetectorOptions,
): Detector {
  const state = moderationState(services);
  const hit = state.detectors.get(projectKey);
  if (hit && hit.version >= version) {
    state.detectors.delete(projectKey);
    state.detectors.set(projectKey, hit);
    return hit.detector;
  }
  if (hit) {
    if (!state.rebuilding.has(projectKey)) {
      state.rebuilding.add(projectKey);
      const rebuild = new Promise((resolve) => setTimeout(resolve, 0))
        .then(() => installDetector(services, projectKey, version, compileDetector(lists())))
        .finally(() => state.rebuilding.delete(projectKey));
      services.defer(rebuild);
    }
    return hit.detector;
  }
  const detector = compileDetector(lists());
  installDetector(services, projectKey, version, detector);
  return detector;
}

/** Keeps a compiled detector for a project unless a newer version is already kept. */
export function installDetector(
  services: Services,
  projectKey: string,
  version: number,
  detector: Detector,
): void {
  const cache = moderationState(services).detectors;
  const current = cache.get(projectKey);
  if (current && current.version > version) return;
  cache.delete(projectKey);
  cache.set(projectKey, { version, detector });
  if (cache.size > MAX_DETECTORS) cache.delete(cache.keys().next().value!);
}

function sealKey(services: Services): Promise<CryptoKey> {
  const state = moderationState(services);
  state.sealKey ??= deriveSealKey(services.secrets.kmsMasterKey, "moderation-secret");
  return state.sealKey;
}

/** Encrypts a chat or project secret for storage; `owner` (the key id) is bound as AAD. */
export async function sealSecret(services: Services, owner: string, secret: string) {
  return await sealText(await sealKey(services), owner, secret);
}

/** Decrypts a sealed secret (cached per sealed value); throws when the master key changed. */
export async function openSecret(services: Services, owner: string, sealed: string) {
  const cache = moderationState(services).secrets;
  const cacheKey = `${owner}\n${sealed}`;
  const hit = cache.get(cacheKey);
  if (hit !== undefined) return hit;
  const secret = await openText(await sealKey(services), owner, sealed);
  if (cache.size >= MAX_SECRETS) cache.delete(cache.keys().next().value!);
  cache.set(cacheKey, secret);
  return secret;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random string of letters and digits (used for game keys, project keys and secrets). */
export function randomAlnum(length: number): string {
  const out: string[] = [];
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the rest keeps the choice uniform.
      if (b < 248 && out.length < length) out.push(ALNUM[b % 62]);
    }
  }
  return out.join("");
}
