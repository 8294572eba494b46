-- Every signed transaction broadcast for a request: the first send, fee-bumped replacements,
-- resubmissions, re-signs (XPLA after timeout_height) and cancels. The tracker watches every hash
-- of a request; whichever is mined decides its outcome. `nonce` is the account sequence on XPLA.
create table chain_tx_attempts (
  request_id text not null references chain_txs (request_id) on delete cascade,
  seq integer not null,
  kind text not null default 'send',
  tx_hash text not null,
  nonce bigint not null,
  -- Polygon: the EIP-1559 fee caps in wei; null on XPLA.
  max_fee_per_gas numeric(78, 0),
  max_priority_fee_per_gas numeric(78, 0),
  -- XPLA: the fee paid (coins as text, e.g. "2000000000000000axpla") and the height after which
  -- the transaction can no longer be included; null on Polygon.
  fee text,
  timeout_height bigint,
  -- The signed bytes as broadcast: 0x-hex (Polygon) or base64 TxRaw (XPLA).
  raw_tx text not null,
  sent_at timestamptz,
  primary key (request_id, seq)
);

create unique index chain_tx_attempts_hash_idx on chain_tx_attempts (tx_hash);

-- Why a request ended FAILED (reverted, replaced by another transaction at its nonce, cancelled,
-- ...), shown by the admin API.
alter table chain_txs add column fail_reason text;
