import assert from "node:assert/strict";
import { callJson } from "../../harness.ts";
import { chainTestOptions, nftTenant } from "../../lib/chain/anvil.ts";
import { storeMetadata } from "../../../lib/chain/metadata.ts";

Deno.test({
  ...chainTestOptions,
  name: "a losing or unsigned mint of the same token id never replaces the minted token's metadata",
  async fn() {
    const t = await nftTenant("metadata race game", { name: "Race" });
    const { tenant, minter, player, nft } = t;
    const mint = (name: string, isSend: boolean) =>
      callJson("POST", `/service/v1/nft/${nft}/mint`, {
        json: {
          playerId: "m-1",
          from: minter.address,
          to: player.address,
          isSend,
          encoded: false,
          callbackUrl: "http://127.0.0.1:9/cb",
          mintMsg: [{ tokenId: "1", royaltyPercentage: 1, metadata: { name, image: "i" } }],
        },
        headers: tenant.chainHeaders,
      });
    const publicName = async () =>
      (await callJson("GET", `/metadata/polygon/${nft}/1`)).body.name as string;

    // Two requests for id 1 were accepted before either was mined (anvil estimates against
    // pending state, so the race is replayed here): one was handed back unsigned and never
    // signed, the other was sent. The sent one is mined first.
    const unsigned = await mint("Unsigned", false);
    assert.equal(unsigned.body.code, 0, JSON.stringify(unsigned.body));
    const winner = await mint("Winner", true);
    assert.equal(winner.body.code, 0, JSON.stringify(winner.body));
    await t.services.idle();
    assert.equal(await publicName(), "Winner");

    // A third racer, sent too but reverted on chain, writes its metadata last.
    const loser = `loser-${crypto.randomUUID()}`;
    await t.services.db.query(
      `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
         status, from_address, contract, request_params, created_at, updated_at)
       values ($1, $2, $3, 'polygon', 31337, 'm-1', 'MINT', 'FAILED', $4, $5, '{}'::jsonb,
         now(), now())`,
      [loser, tenant.appid, tenant.gameIndex, minter.address, nft],
    );
    await storeMetadata(t.services.db, {
      network: "polygon",
      contract: nft,
      requestId: loser,
      tokens: [{ tokenId: "1", metadata: { name: "Loser", image: "l" } }],
      now: new Date(),
    });
    assert.equal(await publicName(), "Winner");

    // The unsigned request of the race can still write late too (e.g. a retried store).
    await storeMetadata(t.services.db, {
      network: "polygon",
      contract: nft,
      requestId: unsigned.body.data.requestId,
      tokens: [{ tokenId: "1", metadata: { name: "Unsigned again", image: "u" } }],
      now: new Date(),
    });
    assert.equal(await publicName(), "Winner");
    const info = await callJson("GET", `/service/v1/nft/${nft}/tokens/1`, {
      headers: tenant.chainHeaders,
    });
    assert.equal(info.body.data.metadata.name, "Winner");

    // Once minted, a new request for the id is refused before anything is stored.
    const late = await mint("Too late", false);
    assert.equal(late.body.code, 2008);
    assert.equal(await publicName(), "Winner");
  },
});
