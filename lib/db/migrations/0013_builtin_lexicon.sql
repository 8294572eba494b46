-- Text detection: per-project switch for the built-in lexicons (on for every project).
alter table tads_projects add column builtin_lexicon boolean not null default true;
