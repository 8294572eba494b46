import assert from "node:assert/strict";
import { buildItemRecord, itemRecordBody } from "../../../lib/items/record.ts";

Deno.test("item record: keys in the spec's fixed order whatever the input order; absent options stay absent", () => {
  const record = buildItemRecord({
    gameIndex: 7,
    userMessage: "hi",
    serverId: "s1",
    reason: "p",
    subReason: "3",
    detail: [{ assetCode: "gold", action: "send", amount: 5 }],
    id: "u1",
    idCategory: "vid",
    transactionId: "tx-1",
  });
  assert.deepEqual(Object.keys(record), [
    "transactionId",
    "idCategory",
    "id",
    "detail",
    "reason",
    "subReason",
    "serverId",
    "userMessage",
    "gameIndex",
  ]);
  assert.equal(
    itemRecordBody(record),
    '{"transactionId":"tx-1","idCategory":"vid","id":"u1","detail":[{"action":"send",' +
      '"assetCode":"gold","amount":5,"method":""}],"reason":"p","subReason":"3",' +
      '"serverId":"s1","userMessage":"hi","gameIndex":7}',
  );
  const full = buildItemRecord({
    transactionId: "tx-2",
    gameIndex: 7,
    idCategory: "vid",
    id: "u1",
    detail: [{ action: "send", assetCode: "gem", amount: 1, method: "mail" }],
    reason: "e",
    serverId: "s1",
    templateMessage: "",
    duration: -1,
    additionalinfo: "x",
  });
  assert.deepEqual(Object.keys(full), [
    "transactionId",
    "idCategory",
    "id",
    "detail",
    "reason",
    "serverId",
    "additionalinfo",
    "duration",
    "templateMessage",
    "gameIndex",
  ]);
  assert.deepEqual(full.detail, [{ action: "send", assetCode: "gem", amount: 1, method: "mail" }]);
});
