-- Standard Webhooks signing secrets, one per game, sealed under the master key. After a rotation
-- the previous secret also signs until previous_until, so receivers can switch without a gap.
create table webhook_secrets (
  game_index integer primary key references games (game_index),
  secret_sealed text not null,
  previous_sealed text,
  previous_until timestamptz,
  rotated_at timestamptz not null
);
