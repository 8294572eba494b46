-- Blockchain: KMS wallets, NFT metadata, transaction requests with their callback outbox,
-- and the per-(chain, sender) signing lock.
create table chain_wallets (
  address text primary key,
  game_index integer not null references games (game_index),
  key_ciphertext text not null,
  created_at timestamptz not null default now()
);

create table nft_metadata (
  network text not null,
  contract text not null,
  token_id text not null,
  metadata jsonb not null,
  created_at timestamptz not null,
  primary key (network, contract, token_id)
);

create table chain_txs (
  request_id text primary key,
  appid text not null,
  game_index integer not null references games (game_index),
  network text not null,
  chain_id integer not null,
  player_id text not null,
  tx_type text not null,
  status text not null,
  from_address text not null,
  contract text not null,
  tx_hash text unique,
  nonce bigint,
  request_params jsonb not null,
  callback_url text,
  callback_state text not null default 'none',
  callback_attempts integer not null default 0,
  callback_next_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  sent_at timestamptz
);

create index chain_txs_app_idx on chain_txs (appid, created_at);
create index chain_txs_pending_idx on chain_txs (status) where status = 'PENDING';
create index chain_txs_callback_idx on chain_txs (callback_next_at) where callback_state = 'due';

create table chain_send_locks (
  chain_id integer not null,
  address text not null,
  holder text not null,
  expires_at timestamptz not null,
  primary key (chain_id, address)
);
