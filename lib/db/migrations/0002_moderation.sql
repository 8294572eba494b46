-- Abuse detection: text-detection projects (word lists), chat keys per game, stored chat logs.
create table tads_projects (
  project_key text primary key,
  name text not null,
  secret_sealed text not null,
  forbidden_words jsonb not null default '[]',
  allow_words jsonb not null default '[]',
  masking_enabled boolean not null default false,
  mask_char text not null default '*',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table chat_keys (
  game_key text primary key,
  game_index integer not null references games (game_index),
  secret_sealed text not null,
  project_key text references tads_projects (project_key),
  created_at timestamptz not null default now()
);

create index chat_keys_game_idx on chat_keys (game_index);

create table chat_logs (
  id bigserial primary key,
  game_index integer not null references games (game_index),
  game_key text not null,
  sent_at timestamptz not null,
  time_stamp text not null,
  room_num bigint not null,
  lang_code integer not null,
  chat_mode integer not null,
  channel_user_id bigint not null,
  chat_msg text not null,
  forbidden boolean not null,
  spam boolean not null,
  spam_rule text,
  matched_words jsonb not null default '[]',
  received_at timestamptz not null default now()
);

create index chat_logs_game_idx on chat_logs (game_index, id desc);
create index chat_logs_flagged_idx on chat_logs (game_index, id desc) where forbidden or spam;
create index chat_logs_user_idx on chat_logs (game_index, channel_user_id, id desc);
