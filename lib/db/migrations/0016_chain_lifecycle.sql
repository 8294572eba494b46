-- The transaction lifecycle on EVM chains: nonces handed out from the database, confirmations
-- and reorganisation watch, fee-cap and cancel marks, callbacks per final state, idempotency
-- keys of the blockchain API, and the gas watch of service wallets.

-- The next nonce the service hands out for a wallet, kept with the wallet's send lock: a nonce
-- is taken inside the lock and written with the transaction's first attempt, so two instances
-- never take the same one and a refused send gives its nonce back.
alter table chain_send_locks add column next_nonce bigint;

-- The block of the receipt seen for the request's mined transaction (PENDING while it waits for
-- POLYGON_CONFIRMATIONS blocks; SUCCESS keeps it while the block is re-checked for a
-- reorganisation, until `watch_until_block`).
alter table chain_txs add column mined_block bigint;
alter table chain_txs add column mined_block_hash text;
alter table chain_txs add column watch_until_block bigint;
-- When POLYGON_MAX_FEE_GWEI stopped a further fee bump of the request.
alter table chain_txs add column fee_capped_at timestamptz;
-- When an operator asked to cancel the request (a zero-value self-transfer at its nonce).
alter table chain_txs add column cancel_requested_at timestamptz;
-- The final state its callback last reported, and how many distinct final states were reported
-- (a state reversed by a reorganisation is reported again under a new webhook-id).
alter table chain_txs add column callback_status text;
alter table chain_txs add column callback_version integer not null default 0;

create index chain_txs_reorg_watch_idx on chain_txs (chain_id)
  where status = 'SUCCESS' and watch_until_block is not null;

-- Why an attempt was broadcast: 'send', 'replace' (stuck, fees bumped), 'reprice' (refused as
-- underpriced at once), 'resign', 'cancel'.
alter table chain_tx_attempts add column reason text;
-- When the attempt's signed bytes were broadcast again after the node had dropped them.
alter table chain_tx_attempts add column resubmitted_at timestamptz;

-- Idempotency-Key of the blockchain API's writing endpoints, per app, kept for 24 hours.
create table idempotency_keys (
  appid text not null,
  key text not null,
  fingerprint text not null,
  -- 'running' while the first request runs (a lease until lease_until), then 'done'.
  state text not null,
  lease_until timestamptz,
  request_id text,
  status integer,
  content_type text,
  body text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (appid, key)
);
create index idempotency_keys_expiry_idx on idempotency_keys (expires_at);

-- The gas watch: each service wallet's native balance at its last check.
create table chain_wallet_balances (
  chain_id integer not null,
  address text not null,
  game_index integer not null,
  balance_wei numeric(78, 0) not null,
  low boolean not null,
  checked_at timestamptz not null,
  -- When the low-balance webhook was last sent for the current low period.
  alerted_at timestamptz,
  primary key (chain_id, address)
);
