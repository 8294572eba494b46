-- Chat log batches already stored, per game, by the SHA-256 of the batch as sent (chat_count and
-- each message's time_stamp and ciphertext). Written in the statement that stores the batch's rows,
-- so a client that sends a stored batch again (its first answer lost, or a 503 after the commit)
-- is answered success without a second copy while the receipt is younger than
-- CHAT_BATCH_DEDUP_SECONDS. Expired receipts are deleted by the scheduled work.
create table chat_batch_receipts (
  game_index integer not null references games (game_index),
  body_hash text not null,
  stored_at timestamptz not null,
  primary key (game_index, body_hash)
);

create index chat_batch_receipts_stored_idx on chat_batch_receipts (stored_at);
