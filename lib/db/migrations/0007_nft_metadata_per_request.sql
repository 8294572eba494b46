-- NFT metadata is kept per mint request, so a request that loses the race for a token id (or a
-- WAITING mint never signed) cannot replace the metadata of the mint that succeeded.
-- Rows from before this migration keep an empty request id.
alter table nft_metadata add column request_id text not null default '';
alter table nft_metadata drop constraint nft_metadata_pkey;
alter table nft_metadata add primary key (network, contract, token_id, request_id);
