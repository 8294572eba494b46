-- Tenancy: games, their apps (blockchain client credentials) and scoped API keys.
create table games (
  game_index serial primary key,
  name text not null,
  created_at timestamptz not null default now()
);

create table apps (
  appid text primary key,
  game_index integer not null references games (game_index),
  client_id text not null unique,
  client_secret_hash text not null,
  created_at timestamptz not null default now()
);

create table api_keys (
  key_id text primary key,
  game_index integer not null references games (game_index),
  scopes jsonb not null,
  key_hash text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);

create index api_keys_game_idx on api_keys (game_index);

-- Blockchain contracts known to the service (registered or deployed by it).
create table contracts (
  network text not null,
  address text not null,
  type text not null,
  name text not null,
  owner text not null,
  game_index integer not null references games (game_index),
  symbol_uri text,
  created_at timestamptz not null default now(),
  primary key (network, address)
);

create index contracts_owner_idx on contracts (network, owner);
