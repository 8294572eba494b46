-- Exact record counts per app and network for the transaction list's totalItems. Triggers keep
-- them in the same transaction as each insert or delete, one upsert per statement (not per
-- row), so a bulk insert costs one count update. Records never change app or network.
-- The count row of an app is updated by each of its inserts and held until that transaction
-- commits, so an app's inserts queue on it; records are written one per chain request (about 10
-- a second) in short transactions, far from where that queue would show.
create table chain_tx_counts (
  appid text not null,
  network text not null,
  n bigint not null check (n >= 0),
  primary key (appid, network)
);

create function chain_tx_counts_inserted() returns trigger language plpgsql as $$
begin
  -- Ordered, so statements touching several apps take the count rows' locks in one order.
  insert into chain_tx_counts (appid, network, n)
  select appid, network, count(*) from inserted_rows group by appid, network
   order by appid, network
  on conflict (appid, network) do update set n = chain_tx_counts.n + excluded.n;
  return null;
end $$;

create function chain_tx_counts_deleted() returns trigger language plpgsql as $$
begin
  update chain_tx_counts c set n = c.n - d.n
    from (select appid, network, count(*) as n from deleted_rows group by appid, network) d
   where c.appid = d.appid and c.network = d.network;
  return null;
end $$;

-- No record is written while the triggers appear and the counts are filled in.
lock table chain_txs in share row exclusive mode;

create trigger chain_tx_counts_insert after insert on chain_txs
  referencing new table as inserted_rows
  for each statement execute function chain_tx_counts_inserted();

create trigger chain_tx_counts_delete after delete on chain_txs
  referencing old table as deleted_rows
  for each statement execute function chain_tx_counts_deleted();

insert into chain_tx_counts (appid, network, n)
select appid, network, count(*) from chain_txs group by appid, network;
