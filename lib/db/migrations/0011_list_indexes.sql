-- Lists that stay flat as history grows: every list's filter and order is served by one index,
-- so a page reads only the rows it returns (plus a capped count).

-- Transaction list: app + network (+ player), newest first, request id as the tie-break.
create index if not exists chain_txs_list_idx
  on chain_txs (appid, network, created_at desc, request_id desc);
create index if not exists chain_txs_player_list_idx
  on chain_txs (appid, network, player_id, created_at desc, request_id desc);
-- Superseded by chain_txs_list_idx.
drop index if exists chain_txs_app_idx;

-- The chain tracker's scan of sent PENDING transactions, oldest first.
create index if not exists chain_txs_pending_scan_idx
  on chain_txs (chain_id, sent_at) where status = 'PENDING' and tx_hash is not null;
drop index if exists chain_txs_pending_idx;
