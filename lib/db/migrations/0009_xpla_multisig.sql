-- XPLA multi-signature wallets: a legacy amino threshold key over the members' public keys,
-- read from their accounts when the wallet is created. Keys and signer addresses are kept in
-- the multisig's own order (the order of its signatures' bit array).
create table xpla_multisig_wallets (
  address text not null,
  game_index integer not null references games (game_index),
  threshold integer not null,
  public_keys jsonb not null,
  signers jsonb not null,
  created_by text not null,
  created_at timestamptz not null,
  primary key (address, game_index)
);
