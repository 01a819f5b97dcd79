-- The "new companies" watch (issue 32 item 3): a saved search of the registry's newly created establishments by
-- activity × place × legal form × headcount band, run weekly or monthly. Each run is a registry-first export of the
-- establishments created since the previous run's cutoff (app/domain/new-companies-watch.ts), read from the local
-- registry store; those the map does not know yet are delivered free and looked for again at D+7 and D+30.

-- 'map': a search of the map (criteria + filters), as before. 'new_companies': the registry filters below.
alter table public.saved_searches
  add column kind text not null default 'map' check (kind in ('map', 'new_companies')),
  -- registryFiltersSchema's input (app/domain/registry-search.ts) without the creation window, which each run sets.
  add column registry_filters jsonb,
  -- The last day the watch delivered (its last run's createdBefore): the next run starts after it.
  add column watch_cutoff date,
  add constraint saved_searches_watch_filters check (kind <> 'new_companies' or registry_filters is not null);

grant insert (kind, registry_filters) on table public.saved_searches to authenticated;

-- The watch's establishments not online yet: delivered free by the run of `delivered_on`, looked for on the map again
-- by the first run on or after `due_on` (D+7, then D+30 = `final_on`). The run trying one holds it (`pending_export_id`)
-- until its search ends: found, it is in that run's export (enriched and charged then) and leaves this table; not
-- found, it waits for D+30, or is dropped when that was its last chance. Written by the server only (the run command
-- after it leaves the user's role, the trigger below); the owner reads theirs.
create table public.saved_search_watch_retries (
  saved_search_id uuid not null references public.saved_searches (id) on delete cascade,
  user_id uuid not null references public.users (id) on delete cascade,
  siret text not null check (siret ~ '^[0-9]{14}$'),
  delivered_on date not null,
  due_on date not null,
  final_on date not null,
  attempts smallint not null default 0,
  last_chance boolean not null default false,
  first_export_id uuid references public.exports (id) on delete set null,
  pending_export_id uuid references public.exports (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (saved_search_id, siret)
);
create index saved_search_watch_retries_due on public.saved_search_watch_retries (saved_search_id, due_on);
create index saved_search_watch_retries_pending on public.saved_search_watch_retries (pending_export_id) where pending_export_id is not null;

comment on table public.saved_search_watch_retries is 'New-companies watch: establishments delivered before they were online, looked for again at D+7 and D+30.';

revoke all on table public.saved_search_watch_retries from anon, authenticated;
grant all on table public.saved_search_watch_retries to service_role;
grant select on table public.saved_search_watch_retries to authenticated;
alter table public.saved_search_watch_retries enable row level security;
create policy saved_search_watch_retries_select_own on public.saved_search_watch_retries
  for select to authenticated using (user_id = (select public.current_workspace_id()));

-- When a watch run's search ends (its leads are linked, nothing enriched yet), in the transaction that ends it:
-- the establishments it tried again are settled, and those it delivered without the map start waiting. The days come
-- from the run (search_params.watch, computed by app/domain/new-companies-watch.ts); this only applies them.
create function public.watch_run_searched() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  watch jsonb := new.search_params -> 'watch';
begin
  -- Found on the map this time: delivered in this run.
  delete from public.saved_search_watch_retries r
   where r.pending_export_id = new.id
     and exists (
       select 1 from public.export_leads el join public.leads l on l.id = el.lead_id
        where el.export_id = new.id
          and l.admin_fr_info ->> 'matched_by' = 'registry_map'
          and l.admin_fr_info -> 'results' -> 0 ->> 'siret' = r.siret);
  -- Not found at its last chance: dropped.
  delete from public.saved_search_watch_retries r where r.pending_export_id = new.id and r.last_chance;
  -- Not found before D+30: waits for it.
  update public.saved_search_watch_retries r
     set pending_export_id = null, due_on = r.final_on, attempts = r.attempts + 1
   where r.pending_export_id = new.id;
  insert into public.saved_search_watch_retries (saved_search_id, user_id, siret, delivered_on, due_on, final_on, first_export_id)
  select new.saved_search_id, new.user_id, l.admin_fr_info -> 'results' -> 0 ->> 'siret',
         (watch ->> 'runDay')::date, (watch ->> 'dueOn')::date, (watch ->> 'finalOn')::date, new.id
    from public.export_leads el join public.leads l on l.id = el.lead_id
   where el.export_id = new.id
     and l.admin_fr_info ->> 'matched_by' = 'registry_not_online'
     and (l.admin_fr_info -> 'results' -> 0 ->> 'siret') ~ '^[0-9]{14}$'
     and exists (select 1 from public.saved_searches s where s.id = new.saved_search_id and s.user_id = new.user_id)
  on conflict (saved_search_id, siret) do nothing;
  return null;
end $$;

revoke all on function public.watch_run_searched() from public, anon, authenticated;

create trigger exports_watch_run_searched
  after update of search_status on public.exports
  for each row
  when (new.saved_search_id is not null and new.search_status = 'completed' and old.search_status is distinct from 'completed'
        and new.search_params ? 'watch')
  execute function public.watch_run_searched();
