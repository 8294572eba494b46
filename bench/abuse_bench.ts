/**
 * Abuse-detection benchmarks (`deno task bench`):
 * 1. detector throughput on 100-character mixed-language texts with 1,000 and 10,000 forbidden
 *    words: ours (normalise + match + mask; alone and with the built-in lexicons) beside npm
 *    `obscenity` and a RegExp alternation;
 * 2. AES-ECB decryption of a 100-message batch: @noble/ciphers vs WebCrypto AES-CBC detour;
 * 3. end-to-end latency of one 100-text encrypted /cads2 batch through the app (PGlite).
 * Each iteration of a detector bench processes TEXTS texts: texts/s = TEXTS / time per iter.
 */
import {
  DataSet,
  englishRecommendedTransformers,
  parseRawPattern,
  RegExpMatcher,
  TextCensor,
} from "obscenity";
import { ecb } from "@noble/ciphers/aes.js";
import { compileDetector } from "../lib/abuse/detector.ts";
import { ecbDecryptor, encryptEcb } from "../lib/crypto/aes_ecb.ts";
import { fromBase64 } from "../lib/crypto/hashing.ts";
import { chatTexts, forbiddenWords } from "./abuse_corpus.ts";

const TEXTS = 200;
const texts = chatTexts(TEXTS, 100);

function obscenityMatcher(words: string[]) {
  const data = new DataSet<{ word: string }>();
  for (const word of words) {
    data.addPhrase((p) => p.setMetadata({ word }).addPattern(parseRawPattern(word)));
  }
  const matcher = new RegExpMatcher({
    ...data.build(),
    ...englishRecommendedTransformers,
    whitelistedTerms: ["classic", "assassin"],
  });
  const censor = new TextCensor();
  return (text: string) => censor.applyTo(text, matcher.getAllMatches(text));
}

function regexpMatcher(words: string[]) {
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  escaped.sort((a, b) => b.length - a.length);
  const re = new RegExp(escaped.join("|"), "giu");
  return (text: string) => text.replace(re, (m) => "*".repeat(m.length));
}

for (const size of [1_000, 10_000]) {
  const words = forbiddenWords(size);
  const ours = compileDetector({ forbiddenWords: words, allowWords: ["classic", "assassin"] });
  const withBuiltin = compileDetector({
    forbiddenWords: words,
    allowWords: ["classic", "assassin"],
    builtin: true,
  });
  const obscene = obscenityMatcher(words);
  const regexp = regexpMatcher(words);
  const group = `detector ${size} words (${TEXTS} texts/iter)`;
  Deno.bench(`ours: normalise+match+mask, ${size} words`, { group, baseline: true }, () => {
    for (const t of texts) ours.detect(t);
  });
  Deno.bench(
    `ours + built-in lexicons (16 languages, lang unknown), ${size} words`,
    { group },
    () => {
      for (const t of texts) withBuiltin.detect(t);
    },
  );
  Deno.bench(`obscenity RegExpMatcher+censor, ${size} words`, { group, n: 5, warmup: 1 }, () => {
    for (const t of texts) obscene(t);
  });
  Deno.bench(`RegExp alternation (no normalisation), ${size} words`, { group }, () => {
    for (const t of texts) regexp(t);
  });
}

// AES-ECB: a 100-message chat batch (about 150-byte messages), key set up once per batch.
const SECRET = "0123456789abcdef0123456789abcdef";
const batch = texts.slice(0, 100).map((t) =>
  encryptEcb(JSON.stringify({ user_id: "u1", lang_code: "en", text: t }), SECRET)
);
const rawBatch = batch.map(fromBase64);
const keyBytes = new TextEncoder().encode(SECRET);

/** ECB decryption through WebCrypto AES-CBC: append a valid padding block, undo the chaining. */
async function webcryptoEcbDecrypt(key: CryptoKey, data: Uint8Array): Promise<Uint8Array> {
  const last = data.slice(data.length - 16);
  // CBC-encrypting nothing with IV = last block yields E(padding ^ last): a valid final block.
  const pad = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-CBC", iv: last }, key, new Uint8Array(0)),
  );
  const joined = new Uint8Array(data.length + 16);
  joined.set(data);
  joined.set(pad, data.length);
  const out = new Uint8Array(
    await crypto.subtle.decrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, key, joined),
  );
  for (let i = 16; i < out.length; i++) out[i] ^= data[i - 16];
  return out;
}

Deno.bench("noble ecb decrypt (kept), 100 messages", { group: "aes-ecb", baseline: true }, () => {
  const decrypt = ecbDecryptor(SECRET)!;
  for (const m of batch) decrypt(m);
});
Deno.bench("noble ecb, raw bytes only, 100 messages", { group: "aes-ecb" }, () => {
  const cipher = ecb(keyBytes, { disablePadding: true });
  for (const m of rawBatch) cipher.decrypt(m);
});
Deno.bench("WebCrypto AES-CBC detour, 100 messages", { group: "aes-ecb" }, async () => {
  const key = await crypto.subtle.importKey("raw", keyBytes, "AES-CBC", false, [
    "encrypt",
    "decrypt",
  ]);
  for (const m of rawBatch) await webcryptoEcbDecrypt(key, m);
});

// End to end: one 100-text /cads2 batch through the app on the embedded tier, 10,000 words.
const { testEnv, admin } = await import("../tests/harness.ts");
const { app } = await testEnv();
const project = await admin("POST", "/admin/v1/tads/projects", {
  name: "bench",
  forbiddenWords: forbiddenWords(10_000),
  masking: { enabled: true },
});
const body = JSON.stringify({
  project_key: project.body.projectKey,
  text_log: {
    text_count: 100,
    text_array: texts.slice(0, 100).map((t, i) => ({
      time_stamp: "2024-05-01T12:00:00+09:00",
      text_info: encryptEcb(
        JSON.stringify({ user_id: `user-${i}`, lang_code: "en", text: t }),
        project.body.secretKey,
      ),
    })),
  },
});
const request = () =>
  app.request("/cads2/send-text-data", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
const first = await (await request()).json();
if (first.result.result_code !== "200") throw new Error(JSON.stringify(first));
Deno.bench(
  "POST /cads2/send-text-data, 100 texts, 10,000 words",
  { group: "e2e", baseline: true },
  async () => {
    await (await request()).arrayBuffer();
  },
);
Deno.bench("GET /healthz (bare route, same app)", { group: "e2e" }, async () => {
  await (await app.request("/healthz")).arrayBuffer();
});
