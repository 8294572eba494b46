-- An optional name for an API key ("ci deploys", "game server eu-1"), so a list of keys says which
-- one is which before one is revoked.
alter table api_keys add column name text check (char_length(name) between 1 and 100);
