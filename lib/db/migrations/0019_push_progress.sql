-- Push progress per slice: a cursor over device ids and an in-flight window replace the row per
-- message. push_deliveries keeps only messages that were not sent (failed, invalid token).
--
-- cursor_id      every device of the slice with an id up to it is settled, except `holes`
-- holes          device ids below cursor_id whose messages were still in flight at the last write
-- window_id      no message to a device above it has been handed to a provider or the sink
-- resend_through a dispatcher that takes the slice over sends the devices in (cursor_id,
--                resend_through] and the holes again, counted in `resent`: their first copy may
--                have reached the provider (every message carries a collapse id, so a device
--                that got both shows one notification)
alter table push_slices add column cursor_id bigint not null default 0;
alter table push_slices add column holes jsonb not null default '[]';
alter table push_slices add column window_id bigint not null default 0;
alter table push_slices add column resend_through bigint not null default 0;
alter table push_slices add column resent integer not null default 0;

-- A slice a dispatcher was sending under the per-message rows: it goes on after its last recorded
-- device, and the messages recorded but never answered are settled as before ('unconfirmed',
-- counted as failed: they were sent without a collapse id, so sending them again could show twice).
with unanswered as (
  update push_deliveries d set state = 'unconfirmed', settled_at = now(),
    detail = 'interrupted before the provider answered; not sent again to avoid a duplicate'
  from push_slices s
  where d.slice_id = s.id and s.state = 'leased' and d.state = 'sending'
  returning d.slice_id),
counted as (select slice_id, count(*) as n from unanswered group by slice_id)
update push_slices s set
  cursor_id = coalesce((select max(device_id) from push_deliveries d where d.slice_id = s.id), 0),
  window_id = coalesce((select max(device_id) from push_deliveries d where d.slice_id = s.id), 0),
  targeted = s.targeted + coalesce((select n from counted where counted.slice_id = s.id), 0),
  failed = s.failed + coalesce((select n from counted where counted.slice_id = s.id), 0)
where s.state = 'leased';
