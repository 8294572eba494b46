-- OTP sending information ("topics"): one per game and topic name, chosen by the `Topic` header.
-- Codes, attempt counters and send counters live in Redis, never here.
create table otp_topics (
  game_index integer not null references games (game_index),
  topic text not null,
  service_name text not null,
  mode text not null check (mode in ('provider', 'direct')),
  callback_url text,
  expiry_seconds integer not null default 180,
  time_zone text not null default 'Asia/Seoul',
  code_length integer not null default 6,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (game_index, topic),
  check (mode = 'provider' or callback_url is not null)
)
