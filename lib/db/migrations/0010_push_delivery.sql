-- Push delivery to FCM and APNs: per-app provider credentials (sealed), device token hygiene,
-- one delivery row per slice and device (restart without duplicates) and per-slice counts.

-- Credentials of one app. The secrets (service-account JSON, .p8 key) are sealed under the master
-- key bound to `<appid>:fcm` / `<appid>:apns`; the other columns are what GET shows.
create table push_credentials (
  appid text primary key references apps (appid) on delete cascade,
  game_index integer not null references games (game_index),
  fcm_sealed text,
  fcm_project_id text,
  fcm_client_email text,
  fcm_fingerprint text,
  fcm_error text,
  fcm_error_at timestamptz,
  apns_sealed text,
  apns_team_id text,
  apns_key_id text,
  apns_bundle_id text,
  apns_production boolean,
  apns_fingerprint text,
  apns_error text,
  apns_error_at timestamptz,
  updated_at timestamptz not null default now()
);

-- A device whose token a provider refused as unregistered or invalid is kept but never targeted
-- again until it registers again (which sets active back to true).
alter table push_devices add column active boolean not null default true;
alter table push_devices add column deactivated_at timestamptz;
alter table push_devices add column deactivated_reason text;

-- Per slice: a cursor over device ids (keyset) and the counts of what the providers answered.
alter table push_slices add column targeted integer not null default 0;
alter table push_slices add column sent integer not null default 0;
alter table push_slices add column failed integer not null default 0;
alter table push_slices add column invalid integer not null default 0;
alter table push_slices add column retried integer not null default 0;
alter table push_slices add column started_at timestamptz;
alter table push_slices add column last_error text;

-- One row per message handed to a provider, written before the request goes out ('sending') and
-- settled after (sent, failed, invalid). A slice taken over after a crash never sends to a device
-- that already has a row; rows still 'sending' are settled as 'unconfirmed'.
create table push_deliveries (
  slice_id bigint not null references push_slices (id) on delete cascade,
  device_id bigint not null,
  campaign_id bigint not null,
  state text not null default 'sending',
  attempts integer not null default 0,
  detail text,
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  primary key (slice_id, device_id)
);

create index push_deliveries_device_idx on push_deliveries (device_id);
create index push_campaigns_game_idx on push_campaigns (game_index, id);
-- The dispatcher pages a game's active devices in id order.
create index push_devices_game_active_idx on push_devices (game_index, id) where active;
