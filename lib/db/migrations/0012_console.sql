-- Console and admin reads: when an API key was last used, which game a text-detection project
-- belongs to and who changed its lists last, and the history of item endpoint health probes.
alter table api_keys add column last_used_at timestamptz;

alter table tads_projects add column game_index integer references games (game_index);
alter table tads_projects add column updated_by text;
create index tads_projects_game_idx on tads_projects (game_index);

-- Lists are newest first with the key as tie-breaker: (created_at, key) scanned backward.
create index apps_game_idx on apps (game_index, created_at, appid);

create table item_endpoint_probes (
  id bigserial primary key,
  game_index integer not null references games (game_index),
  healthy boolean not null,
  error text,
  probed_at timestamptz not null
);

create index item_endpoint_probes_game_idx on item_endpoint_probes (game_index, id desc);
create index item_requests_game_idx on item_requests (game_index, created_at, transaction_id);
create index chain_txs_game_idx on chain_txs (game_index, created_at, request_id);
