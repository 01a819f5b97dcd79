-- The French registry (recherche-entreprises.api.gouv.fr) allows 7 requests/s per IP: every process of a deployment
-- (app servers, workers) shares one budget, counted here, between the enrichment's lookups and the registry-first
-- search. Server-side only: RLS on and no policy, no grant to the API roles.

-- One row per upstream host: the grants of the last window (epoch ms, DB clock, with the class that took each), the
-- classes refused lately (so the other class stays within its share), and a 429's Retry-After shared by everyone.
create table public.registry_limiter (
  key text primary key,
  grant_times double precision[] not null default '{}',
  grant_classes text[] not null default '{}',
  demand jsonb not null default '{}'::jsonb,
  paused_until double precision not null default 0
);
alter table public.registry_limiter enable row level security;
revoke all on public.registry_limiter from anon, authenticated;
grant select, insert, update, delete on public.registry_limiter to service_role;

-- Takes one request slot for p_class, or says how long to wait (ms) before asking again. One row lock per call, so
-- processes never both take the last slot. A class may go beyond p_share grants in the window only while no other
-- class is waiting (refused, or granted with more requests queued behind, within the window): when both want the
-- registry, each gets its share; when one is idle, the other may use the whole budget.
create function public.registry_limiter_take(p_key text, p_class text, p_limit integer, p_window_ms double precision, p_share integer, p_more boolean)
returns double precision
language plpgsql
set search_path = ''
as $$
declare
  now_ms double precision := extract(epoch from clock_timestamp()) * 1000;
  row_ public.registry_limiter;
  times double precision[] := '{}';
  classes text[] := '{}';
  own integer := 0;
  own_oldest double precision;
  other_waiting boolean;
  i integer;
begin
  insert into public.registry_limiter (key) values (p_key) on conflict (key) do nothing;
  select * into row_ from public.registry_limiter where key = p_key for update;
  if row_.paused_until > now_ms then
    return row_.paused_until - now_ms;
  end if;
  for i in 1 .. coalesce(array_length(row_.grant_times, 1), 0) loop
    if row_.grant_times[i] > now_ms - p_window_ms then
      times := times || row_.grant_times[i];
      classes := classes || row_.grant_classes[i];
      if row_.grant_classes[i] = p_class then
        own := own + 1;
        own_oldest := coalesce(own_oldest, row_.grant_times[i]);
      end if;
    end if;
  end loop;
  select exists (
    select 1 from jsonb_each_text(row_.demand) d where d.key <> p_class and d.value::double precision > now_ms - p_window_ms
  ) into other_waiting;
  if coalesce(array_length(times, 1), 0) < p_limit and (own < p_share or not other_waiting) then
    update public.registry_limiter
      set grant_times = times || now_ms, grant_classes = classes || p_class,
        demand = case when p_more then demand || jsonb_build_object(p_class, now_ms) else demand - p_class end
      where key = p_key;
    return 0;
  end if;
  update public.registry_limiter
    set grant_times = times, grant_classes = classes, demand = demand || jsonb_build_object(p_class, now_ms)
    where key = p_key;
  if coalesce(array_length(times, 1), 0) >= p_limit then
    return greatest(1, times[1] + p_window_ms - now_ms);
  end if;
  return greatest(1, own_oldest + p_window_ms - now_ms);
end;
$$;

-- A 429's Retry-After: every process waits until then (never shortens a pause already set).
create function public.registry_limiter_pause(p_key text, p_ms double precision)
returns void
language sql
set search_path = ''
as $$
  insert into public.registry_limiter (key, paused_until) values (p_key, extract(epoch from clock_timestamp()) * 1000 + p_ms)
  on conflict (key) do update set paused_until = greatest(public.registry_limiter.paused_until, excluded.paused_until);
$$;

revoke all on function public.registry_limiter_take(text, text, integer, double precision, integer, boolean) from public, anon, authenticated;
revoke all on function public.registry_limiter_pause(text, double precision) from public, anon, authenticated;
grant execute on function public.registry_limiter_take(text, text, integer, double precision, integer, boolean) to service_role;
grant execute on function public.registry_limiter_pause(text, double precision) to service_role;

-- Identical registry searches within a day are answered from here (any process): key = the normalized query.
create table public.registry_search_cache (
  key text primary key,
  body jsonb not null,
  fetched_at timestamptz not null default now()
);
create index registry_search_cache_fetched_at on public.registry_search_cache (fetched_at);
alter table public.registry_search_cache enable row level security;
revoke all on public.registry_search_cache from anon, authenticated;
grant select, insert, update, delete on public.registry_search_cache to service_role;
