-- Push campaigns, their scheduled slices, targeting records and data, devices, and the log sink.

-- Status: 1 registered, 2 sending, 3 completed, 4 cancelled (documented in README).
create table push_campaigns (
  id bigserial primary key,
  game_index integer not null references games (game_index),
  uuid text not null,
  status integer not null default 1,
  type text not null,
  targeting_id bigint,
  -- The resolved audience: country codes and appids (the campaign JSON keeps what was sent).
  countries jsonb not null,
  appids jsonb not null,
  campaign jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index push_campaigns_targeting_idx on push_campaigns (targeting_id, status);

-- One row per distribution slice of a task: the unit the dispatcher claims with a lease.
-- zones null means no zone filter (a non-localizing task reaches every audience zone).
create table push_slices (
  id bigserial primary key,
  campaign_id bigint not null references push_campaigns (id) on delete cascade,
  task_key text not null,
  send_at timestamptz not null,
  slice_index integer not null,
  slice_count integer not null,
  zones jsonb,
  state text not null default 'pending',
  lease_until timestamptz,
  attempts integer not null default 0,
  delivered integer not null default 0,
  sent_at timestamptz
);

create index push_slices_due_idx on push_slices (state, send_at);
create index push_slices_campaign_idx on push_slices (campaign_id, state);

create table push_targetings (
  id bigserial primary key,
  game_index integer not null references games (game_index),
  company text not null,
  company_index integer not null,
  registrant jsonb not null,
  description text not null,
  available boolean not null default false,
  created_at timestamptz not null default now()
);

-- kind: playerId, vid, uid or did; value is the identifier (a long).
create table push_targets (
  id bigserial primary key,
  targeting_id bigint not null references push_targetings (id) on delete cascade,
  appid text not null,
  kind text not null,
  value bigint not null,
  unique (targeting_id, appid, kind, value)
);

create table push_devices (
  id bigserial primary key,
  game_index integer not null references games (game_index),
  appid text not null references apps (appid),
  token text not null,
  platform text not null,
  player_id bigint,
  vid bigint,
  uid bigint,
  did bigint,
  country text not null,
  zone text not null,
  language text,
  updated_at timestamptz not null default now(),
  unique (appid, token)
);

create index push_devices_audience_idx on push_devices (appid, country, zone);

-- What the log sink delivered; unique per slice and device so a re-run never duplicates.
create table push_log_messages (
  id bigserial primary key,
  slice_id bigint not null,
  device_id bigint not null,
  campaign_id bigint not null,
  message jsonb not null,
  created_at timestamptz not null default now(),
  unique (slice_id, device_id)
);
