-- Multi-signature wallets (Safe 1.4.1): the Safe contracts deployed by the service per chain,
-- recorded wallets, prepared Safe transactions, and their link to the transaction records.
-- Keyed by the chain's genesis block too: a restarted local chain (same chain id, new genesis)
-- does not have the contracts an earlier instance had.
create table safe_deployments (
  chain_id integer not null,
  genesis_hash text not null,
  singleton text not null,
  proxy_factory text not null,
  fallback_handler text not null,
  deployed_by text not null,
  created_at timestamptz not null default now(),
  primary key (chain_id, genesis_hash)
);

create table multisig_wallets (
  chain_id integer not null,
  address text not null,
  network text not null,
  game_index integer not null references games (game_index),
  owners jsonb not null,
  threshold integer not null,
  salt_nonce text not null,
  creator text not null,
  singleton text not null,
  proxy_factory text not null,
  fallback_handler text not null,
  state text not null default 'CREATING',
  created_at timestamptz not null,
  deployed_at timestamptz,
  primary key (chain_id, address)
);

create index multisig_wallets_game_idx on multisig_wallets (game_index, created_at);
create index multisig_wallets_creating_idx on multisig_wallets (chain_id) where state = 'CREATING';

-- One row per transaction-creating request whose sender is a Safe: the Safe transaction's fields.
create table multisig_txs (
  request_id text primary key references chain_txs (request_id) on delete cascade,
  chain_id integer not null,
  safe text not null,
  safe_nonce bigint not null,
  safe_tx_hash text not null,
  tx jsonb not null,
  created_at timestamptz not null
);

create unique index multisig_txs_hash_idx on multisig_txs (chain_id, safe, safe_tx_hash);
create index multisig_txs_nonce_idx on multisig_txs (chain_id, safe, safe_nonce);

-- A request executed through a Safe shares its transaction hash with the execTransaction request
-- (exec_of names the request it executes), so the hash is unique among the other records only.
alter table chain_txs add column exec_of text;
alter table chain_txs add column safe_tx_hash text;
alter table chain_txs drop constraint chain_txs_tx_hash_key;
create unique index chain_txs_tx_hash_idx on chain_txs (tx_hash) where safe_tx_hash is null;
create index chain_txs_exec_of_idx on chain_txs (exec_of) where exec_of is not null;
