-- What an export left out before enrichment, and why: {"<reason>": count}. Written by the search phase (the lead
-- gates of app/.server/exports/lead-gates.ts: filters, businesses already exported, the do-not-contact list) and
-- shown on the export's page. Nothing left out is charged: those businesses never become tasks.
alter table public.exports add column excluded jsonb not null default '{}'::jsonb;

comment on column public.exports.excluded is 'Businesses left out before enrichment, counted by reason: {"<reason>": n}.';
