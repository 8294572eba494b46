-- Text detection: per project, the lowest severity (1 mild .. 4 severe) that counts as forbidden
-- and whether intensifiers count; per stored chat message, the category and severity of each
-- counted match.
alter table tads_projects add column min_severity integer not null default 1
  check (min_severity between 1 and 4);
alter table tads_projects add column count_intensifiers boolean not null default false;
alter table chat_logs add column matches jsonb not null default '[]';
