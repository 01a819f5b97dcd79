-- The French registry (recherche-entreprises.api.gouv.fr) allows 7 requests/s per IP: every process of a deployment
-- (app servers, workers) shares one budget, counted here, between the enrichment's lookups and the registry-first
-- search. Server-side only: RLS on and no policy, no grant to the API roles.

-- One row per upstream host: the slots of the last window, the classes refused lately (so the other class stays
-- within its share), and a 429's Retry-After shared by everyone. A slot is held from its grant until its request is
-- answered (grant_done false, grant_times = the grant) and then for one window from the answer (grant_done true,
-- grant_times = the answer): the answer comes after the registry saw the request, so any limit + 1 requests reach the
-- registry at least a window apart, whatever delays the clients had between grant and send. A slot whose answer never
-- comes (a process that died) is freed p_stale_ms after its grant.
create table public.registry_limiter (
  key text primary key,
  grant_times double precision[] not null default '{}',
  grant_classes text[] not null default '{}',
  grant_done boolean[] not null default '{}',
  demand jsonb not null default '{}'::jsonb,
  paused_until double precision not null default 0
);
alter table public.registry_limiter enable row level security;
revoke all on public.registry_limiter from anon, authenticated;
grant select, insert, update, delete on public.registry_limiter to service_role;

-- Takes one slot for p_class: returns 0 and the slot's id (its grant time), or how long to wait (ms) before asking
-- again. One row lock per call, so processes never both take the last slot. A class may hold more than p_share slots
-- only while no other class is waiting (refused, or granted with more requests queued behind, lately): when both want
-- the registry, each gets its share; when one is idle, the other may use the whole budget.
create function public.registry_limiter_take(
  p_key text, p_class text, p_limit integer, p_window_ms double precision, p_share integer, p_more boolean, p_stale_ms double precision,
  out wait_ms double precision, out slot double precision
)
language plpgsql
set search_path = ''
as $$
declare
  now_ms double precision := extract(epoch from clock_timestamp()) * 1000;
  row_ public.registry_limiter;
  times double precision[] := '{}';
  classes text[] := '{}';
  done boolean[] := '{}';
  own integer := 0;
  -- When the first slot frees (all, or this class's own), if known: a slot in flight frees when answered.
  next_free double precision;
  own_next_free double precision;
  other_waiting boolean;
  i integer;
begin
  insert into public.registry_limiter (key) values (p_key) on conflict (key) do nothing;
  select * into row_ from public.registry_limiter where key = p_key for update;
  slot := null;
  if row_.paused_until > now_ms then
    wait_ms := row_.paused_until - now_ms;
    return;
  end if;
  for i in 1 .. coalesce(array_length(row_.grant_times, 1), 0) loop
    if (row_.grant_done[i] and row_.grant_times[i] > now_ms - p_window_ms)
       or (not row_.grant_done[i] and row_.grant_times[i] > now_ms - p_stale_ms) then
      times := times || row_.grant_times[i];
      classes := classes || row_.grant_classes[i];
      done := done || row_.grant_done[i];
      if row_.grant_done[i] then
        next_free := least(next_free, row_.grant_times[i] + p_window_ms);
      end if;
      if row_.grant_classes[i] = p_class then
        own := own + 1;
        if row_.grant_done[i] then
          own_next_free := least(own_next_free, row_.grant_times[i] + p_window_ms);
        end if;
      end if;
    end if;
  end loop;
  select exists (
    -- Two windows: a waiting class asks again at most a window after its refusal, however busy its process is.
    select 1 from jsonb_each_text(row_.demand) d where d.key <> p_class and d.value::double precision > now_ms - 2 * p_window_ms
  ) into other_waiting;
  if coalesce(array_length(times, 1), 0) < p_limit and (own < p_share or not other_waiting) then
    update public.registry_limiter
      set grant_times = times || now_ms, grant_classes = classes || p_class, grant_done = done || false,
        demand = case when p_more then demand || jsonb_build_object(p_class, now_ms) else demand - p_class end
      where key = p_key;
    wait_ms := 0;
    slot := now_ms;
    return;
  end if;
  update public.registry_limiter
    set grant_times = times, grant_classes = classes, grant_done = done, demand = demand || jsonb_build_object(p_class, now_ms)
    where key = p_key;
  -- Every slot in flight: ask again shortly (an answer frees one).
  if coalesce(array_length(times, 1), 0) >= p_limit then
    wait_ms := greatest(1, coalesce(next_free - now_ms, 50));
  else
    wait_ms := greatest(1, coalesce(own_next_free - now_ms, 50));
  end if;
end;
$$;

-- The request of slot p_slot was answered (or failed): the slot stays held for one window from now.
create function public.registry_limiter_done(p_key text, p_slot double precision)
returns void
language plpgsql
set search_path = ''
as $$
declare
  now_ms double precision := extract(epoch from clock_timestamp()) * 1000;
  row_ public.registry_limiter;
  i integer;
begin
  select * into row_ from public.registry_limiter where key = p_key for update;
  if not found then
    return;
  end if;
  for i in 1 .. coalesce(array_length(row_.grant_times, 1), 0) loop
    if not row_.grant_done[i] and row_.grant_times[i] = p_slot then
      row_.grant_times[i] := now_ms;
      row_.grant_done[i] := true;
      exit;
    end if;
  end loop;
  update public.registry_limiter set grant_times = row_.grant_times, grant_done = row_.grant_done where key = p_key;
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

revoke all on function public.registry_limiter_take(text, text, integer, double precision, integer, boolean, double precision) from public, anon, authenticated;
revoke all on function public.registry_limiter_done(text, double precision) from public, anon, authenticated;
revoke all on function public.registry_limiter_pause(text, double precision) from public, anon, authenticated;
grant execute on function public.registry_limiter_take(text, text, integer, double precision, integer, boolean, double precision) to service_role;
grant execute on function public.registry_limiter_done(text, double precision) to service_role;
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
