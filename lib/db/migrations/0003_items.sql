-- Item delivery: each game's registered endpoint (with its probe state) and the request outbox.
create table item_endpoints (
  game_index integer primary key references games (game_index),
  transport text not null check (transport in ('http', 'tcp')),
  url text,
  host text,
  port integer,
  vendor_word text not null,
  healthy boolean,
  last_probe_at timestamptz,
  last_probe_error text,
  probe_due_at timestamptz not null,
  config_suspect boolean not null default false,
  suspect_reason text,
  updated_at timestamptz not null default now()
);

-- One row is both the request record and its outbox entry: registering it is one insert.
create table item_requests (
  game_index integer not null references games (game_index),
  transaction_id text not null,
  body text not null,
  body_hash text not null,
  source text not null,
  status text not null check (status in ('REGISTERED', 'RETRYING', 'DELIVERED', 'FAILED')),
  attempts integer not null default 0,
  last_code integer,
  last_message text,
  next_attempt_at timestamptz not null,
  lease_token text,
  lease_until timestamptz,
  delivered_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (game_index, transaction_id)
);

create index item_requests_due_idx on item_requests (next_attempt_at)
  where status in ('REGISTERED', 'RETRYING');

-- CPA campaigns registered by the operator and the achievements already rewarded.
create table cpa_campaigns (
  appid text not null references apps (appid),
  cpa_code text not null,
  game_index integer not null references games (game_index),
  sub_reason text not null,
  detail jsonb not null,
  created_at timestamptz not null default now(),
  primary key (appid, cpa_code)
);

create table cpa_achievements (
  appid text not null,
  user_kind text not null check (user_kind in ('vid', 'uid')),
  user_id text not null,
  cpa_code text not null,
  server_id text not null,
  achieved_at timestamptz not null,
  game_index integer not null,
  transaction_id text not null,
  created_at timestamptz not null,
  primary key (appid, user_kind, user_id, cpa_code),
  foreign key (appid, cpa_code) references cpa_campaigns (appid, cpa_code)
);
