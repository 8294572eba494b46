import assert from "node:assert/strict";
import { CONTINENTS, countryCode, pushLanguageOf } from "../../../lib/push/reference.ts";
import { deviceZone } from "../../../lib/push/devices.ts";

Deno.test("country codes and English names map to the table's codes", () => {
  assert.equal(countryCode("kr"), "KR");
  assert.equal(countryCode("Germany"), "DE");
  assert.equal(countryCode("United States"), "US");
  assert.equal(countryCode("United Kingdom"), "GB");
  assert.equal(countryCode("South Korea"), "KR");
  assert.equal(countryCode("Côte d’Ivoire"), "CI");
  assert.equal(countryCode("XX"), null);
  assert.equal(countryCode("Narnia"), null);
  const all = Object.values(CONTINENTS).flat();
  assert.equal(all.length, 247, "the spec table lists 247 codes");
  assert.equal(new Set(all).size, all.length, "no code is in two continents");
});

Deno.test("device languages map to the spec's codes", () => {
  assert.equal(pushLanguageOf("ko-KR"), "ko");
  assert.equal(pushLanguageOf("zh-TW"), "zh-hant");
  assert.equal(pushLanguageOf("zh_Hans_CN"), "zh-hans");
  assert.equal(pushLanguageOf("pt-BR"), "pt");
  assert.equal(pushLanguageOf("nl"), null);
  assert.equal(pushLanguageOf(undefined), null);
});

Deno.test("a device is scheduled in its own zone when it belongs to its country", () => {
  assert.equal(deviceZone("US", "America/Chicago"), "America/Chicago");
  assert.equal(deviceZone("US", "US/Pacific"), "America/Los_Angeles");
  assert.equal(deviceZone("US", "Asia/Seoul"), "America/New_York");
  assert.equal(deviceZone("US", undefined), "America/New_York");
  assert.equal(deviceZone("KR", undefined), "Asia/Seoul");
});
