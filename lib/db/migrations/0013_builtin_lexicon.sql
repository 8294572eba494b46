-- Text detection: per-project switch for the built-in lexicons (on for every project) and the
-- languages whose lexicons the project uses (null = all 16).
alter table tads_projects add column builtin_lexicon boolean not null default true;
alter table tads_projects add column builtin_languages jsonb;
