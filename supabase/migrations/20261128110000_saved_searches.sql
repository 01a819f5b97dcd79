-- Saved searches (issue 21 items 1–3): a search the user runs again (now, weekly or monthly) to receive only the
-- businesses none of their exports delivered before. Each run is an export (exports.saved_search_id); the schedule is
-- driven by next_run_at, which the scheduler (app/.server/saved-searches/scheduler.ts) advances in the same
-- transaction as it creates the run's export, so a restart or a second worker never runs one date twice.
create table public.saved_searches (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  name text not null check (length(name) between 1 and 200),
  -- {sector, country, countryCode?, region, department, city}: resolved again (and held to the plan) at each run.
  criteria jsonb not null,
  -- The search page's filters (app/domain/search-filters.ts), applied before anything is charged.
  filters jsonb not null default '{}'::jsonb,
  enrichments text[] not null check (cardinality(enrichments) between 1 and 12),
  -- The download columns the run's export opens with (app/domain/download-presets.ts).
  preset text not null default 'all' check (preset in ('all', 'contacts', 'crm')),
  max_leads integer check (max_leads >= 1),
  -- The language of the runs' files (the one the user saved or last edited it in): a scheduled run has no request.
  lang text not null default 'fr' check (lang in ('fr', 'en')),
  schedule_kind text not null default 'none' check (schedule_kind in ('none', 'weekly', 'monthly')),
  -- ISO weekday (1 = Monday … 7 = Sunday) for weekly runs; day of month for monthly runs (past the month's last day:
  -- its last day).
  schedule_weekday smallint check (schedule_weekday between 1 and 7),
  schedule_day smallint check (schedule_day between 1 and 31),
  schedule_hour smallint not null default 8 check (schedule_hour between 0 and 23),
  -- IANA name: the hour is the user's wall-clock hour, across daylight-saving changes.
  time_zone text not null default 'Europe/Paris' check (length(time_zone) between 1 and 64),
  paused boolean not null default false,
  -- Credits one run may spend at most (null: the credits left are the limit).
  credit_budget integer check (credit_budget >= 1),
  -- null: no schedule, or paused.
  next_run_at timestamptz,
  -- The last run: its export (counts and credits come from it while it runs), or why it was refused.
  last_run_at timestamptz,
  last_export_id uuid references public.exports (id) on delete set null,
  last_new_count integer,
  last_credits integer,
  last_refusal text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (schedule_kind <> 'weekly' or schedule_weekday is not null),
  check (schedule_kind <> 'monthly' or schedule_day is not null)
);

create index saved_searches_user_created_idx on public.saved_searches (user_id, created_at desc, id);
create index saved_searches_due_idx on public.saved_searches (next_run_at) where next_run_at is not null and not paused;

comment on table public.saved_searches is 'Searches a user runs again (now or on a weekly/monthly schedule) for only the businesses they never received.';

revoke all on table public.saved_searches from anon, authenticated;
grant all on table public.saved_searches to service_role;
grant select, delete on table public.saved_searches to authenticated;
grant insert (user_id, name, criteria, filters, enrichments, preset, max_leads, lang, schedule_kind, schedule_weekday, schedule_day, schedule_hour, time_zone, paused, credit_budget, next_run_at)
  on table public.saved_searches to authenticated;
grant update (name, enrichments, preset, max_leads, lang, schedule_kind, schedule_weekday, schedule_day, schedule_hour, time_zone, paused, credit_budget, next_run_at,
  last_run_at, last_export_id, last_new_count, last_credits, last_refusal, updated_at)
  on table public.saved_searches to authenticated;

alter table public.saved_searches enable row level security;
create policy saved_searches_select_own on public.saved_searches
  for select to authenticated using (user_id = (select auth.uid()));
create policy saved_searches_insert_own on public.saved_searches
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy saved_searches_update_own on public.saved_searches
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy saved_searches_delete_own on public.saved_searches
  for delete to authenticated using (user_id = (select auth.uid()));

-- The run an export is (the webhooks emit saved_search.run_completed from it).
alter table public.exports add column saved_search_id uuid references public.saved_searches (id) on delete set null;
create index exports_saved_search_idx on public.exports (saved_search_id) where saved_search_id is not null;

-- When a run's export ends: its counts become the saved search's last run, and new businesses are told
-- (saved_search.new_businesses) instead of the export's own "completed" (see notify_export_event below), in the
-- transaction that ends it, whichever code path ends it.
create function public.saved_search_run_ended() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  search_name text;
begin
  update public.saved_searches s
     set last_new_count = new.lead_count, last_credits = new.total_credits_used
   where s.id = new.saved_search_id and s.user_id = new.user_id and s.last_export_id = new.id
  returning s.name into search_name;
  if new.status = 'completed' and new.lead_count > 0 then
    select coalesce(search_name, s.name) into search_name from public.saved_searches s
     where s.id = new.saved_search_id and s.user_id = new.user_id;
    if search_name is not null then
      insert into public.notifications (user_id, kind, data)
      values (new.user_id, 'saved_search.new_businesses', jsonb_build_object(
        'savedSearchId', new.saved_search_id, 'exportId', new.id, 'name', search_name, 'newCount', new.lead_count,
        'credits', new.total_credits_used));
    end if;
  end if;
  return null;
end $$;

revoke all on function public.saved_search_run_ended() from public, anon, authenticated;

create trigger exports_saved_search_run_ended
  after update of status on public.exports
  for each row
  when (new.saved_search_id is not null and old.status is distinct from new.status and new.status in ('completed', 'failed', 'interrupted'))
  execute function public.saved_search_run_ended();

-- A run's completion is told once, as the saved search's news (and not at all when nothing is new): a weekly run
-- finding nothing new must not email "your export is ready: 0 leads" every week. Failed and interrupted runs are
-- told as any export's.
create or replace function public.notify_export_event() returns trigger
  language plpgsql security definer set search_path = '' as $$
begin
  if new.saved_search_id is not null and new.status = 'completed' then
    return null;
  end if;
  insert into public.notifications (user_id, kind, data)
  values (new.user_id, 'export.' || new.status, jsonb_build_object(
    'exportId', new.id, 'name', new.name, 'leadCount', new.lead_count, 'credits', new.total_credits_used,
    'reason', new.enrichment_status_details ->> 'reason'));
  return null;
end $$;

-- Webhooks: a completed run is also `saved_search.run_completed` (API.md), for the endpoints subscribed to it.
create or replace function public.enqueue_export_webhooks() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  event_types text[];
begin
  if new.status not in ('completed', 'failed', 'interrupted') then
    return null;
  end if;
  event_types := array['export.' || new.status];
  if new.saved_search_id is not null and new.status = 'completed' then
    event_types := event_types || 'saved_search.run_completed'::text;
  end if;
  insert into public.webhook_deliveries (endpoint_id, user_id, event_type, export_id)
  select e.id, e.user_id, event, new.id
  from public.webhook_endpoints e, unnest(event_types) as event
  where e.user_id = new.user_id and e.enabled and event = any (e.events);
  return null;
end $$;
