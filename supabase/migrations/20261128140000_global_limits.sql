-- Limits that protect others (websites, Overpass, Google Places) hold for every process of a deployment: app servers
-- and workers count them here (app/.server/limits/). Server-side only: RLS on and no policy, no grant to the API roles.

-- Concurrency: one row per request in flight for a key (a website's registrable host, an Overpass endpoint). A lease
-- expires unless its process renews it (every few seconds while the request runs): a process that dies (kill -9,
-- machine lost) gives its slots back within one lease duration, without anyone having to notice.
create table public.limit_leases (
  id bigint generated always as identity primary key,
  key text not null,
  -- Which process holds it (host:pid:random): for the operator reading the table, never compared.
  holder text not null,
  expires_at timestamptz not null
);
create index limit_leases_key on public.limit_leases (key, expires_at);
alter table public.limit_leases enable row level security;
revoke all on public.limit_leases from anon, authenticated;
grant select, insert, update, delete on public.limit_leases to service_role;

-- Budgets: requests counted per fixed window (a minute, a UTC day), as the upstreams count their quotas.
create table public.limit_windows (
  key text primary key,
  -- Epoch ms of the current window's start (windows are aligned on the epoch, so a day starts at 00:00 UTC).
  window_start double precision not null,
  used integer not null default 0
);
alter table public.limit_windows enable row level security;
revoke all on public.limit_windows from anon, authenticated;
grant select, insert, update, delete on public.limit_windows to service_role;

-- A back-off every process obeys (after a 429 / Retry-After, an overloaded answer): until when, on the clock of the
-- process that set it (hosts of one deployment agree to NTP precision, far below a back-off's seconds), and the
-- failures in a row that set its length.
create table public.limit_pauses (
  key text primary key,
  until_ms double precision not null default 0,
  failures integer not null default 0
);
alter table public.limit_pauses enable row level security;
revoke all on public.limit_pauses from anon, authenticated;
grant select, insert, update, delete on public.limit_pauses to service_role;

-- Takes up to p_count slots of p_key, as many as fewer than p_limit live leases leave free: their ids (none: ask again
-- later). A process asks once for all its requests waiting on the key. Takers of one key are serialized by a
-- transaction-scoped advisory lock (two-int form, class 23: apart from the single-bigint locks pg-boss takes), so two
-- processes never both take the last slot.
create function public.limit_lease_take(p_key text, p_limit integer, p_holder text, p_ttl_ms integer, p_count integer)
returns setof bigint
language plpgsql
set search_path = ''
as $$
declare
  free integer;
begin
  perform pg_advisory_xact_lock(23, hashtext(p_key));
  delete from public.limit_leases where key = p_key and expires_at <= clock_timestamp();
  free := p_limit - (select count(*) from public.limit_leases where key = p_key);
  return query
    insert into public.limit_leases (key, holder, expires_at)
      select p_key, p_holder, clock_timestamp() + make_interval(secs => p_ttl_ms / 1000.0) from generate_series(1, least(p_count, free))
      returning id;
end;
$$;

-- Keeps the leases of a living process: how many were still held (a lease that expired and was taken over is gone).
create function public.limit_lease_renew(p_ids bigint[], p_ttl_ms integer)
returns integer
language sql
set search_path = ''
as $$
  with renewed as (
    update public.limit_leases set expires_at = clock_timestamp() + make_interval(secs => p_ttl_ms / 1000.0)
      where id = any(p_ids) returning 1
  )
  select count(*)::integer from renewed;
$$;

create function public.limit_lease_release(p_ids bigint[])
returns void
language sql
set search_path = ''
as $$
  delete from public.limit_leases where id = any(p_ids);
$$;

-- Counts one request in every window given (all or none): 0 when counted, else the ms until the window that refused
-- starts over (the longest when several refuse). Rows are locked in key order, so two takers never deadlock.
create function public.limit_windows_take(p_keys text[], p_limits integer[], p_window_ms double precision[])
returns double precision
language plpgsql
set search_path = ''
as $$
declare
  now_ms double precision := extract(epoch from clock_timestamp()) * 1000;
  wait double precision := 0;
  starts double precision[] := '{}';
  i integer;
  start_ double precision;
  used_ integer;
begin
  insert into public.limit_windows (key, window_start)
    select k, 0 from unnest(p_keys) k order by k on conflict (key) do nothing;
  perform 1 from public.limit_windows where key = any(p_keys) order by key for update;
  for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
    start_ := floor(now_ms / p_window_ms[i]) * p_window_ms[i];
    starts := starts || start_;
    select case when w.window_start = start_ then w.used else 0 end into used_ from public.limit_windows w where w.key = p_keys[i];
    if used_ >= p_limits[i] then
      wait := greatest(wait, start_ + p_window_ms[i] - now_ms);
    end if;
  end loop;
  if wait > 0 then
    return wait;
  end if;
  for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
    update public.limit_windows
      set used = case when window_start = starts[i] then used + 1 else 1 end, window_start = starts[i]
      where key = p_keys[i];
  end loop;
  return 0;
end;
$$;

create function public.limit_pause_read(p_key text, out until_ms double precision, out failures integer)
language sql
set search_path = ''
as $$
  select coalesce(max(p.until_ms), 0), coalesce(max(p.failures), 0) from public.limit_pauses p where p.key = p_key;
$$;

-- Never shortens a pause already set by another process.
create function public.limit_pause_set(p_key text, p_until_ms double precision, p_failures integer)
returns void
language sql
set search_path = ''
as $$
  insert into public.limit_pauses (key, until_ms, failures) values (p_key, p_until_ms, p_failures)
  on conflict (key) do update set
    until_ms = greatest(public.limit_pauses.until_ms, excluded.until_ms),
    failures = greatest(public.limit_pauses.failures, excluded.failures);
$$;

-- A success: the next failure waits the shortest back-off again.
create function public.limit_pause_settle(p_key text)
returns void
language sql
set search_path = ''
as $$
  update public.limit_pauses set failures = 0 where key = p_key and failures <> 0;
$$;

revoke all on function public.limit_lease_take(text, integer, text, integer, integer) from public, anon, authenticated;
revoke all on function public.limit_lease_renew(bigint[], integer) from public, anon, authenticated;
revoke all on function public.limit_lease_release(bigint[]) from public, anon, authenticated;
revoke all on function public.limit_windows_take(text[], integer[], double precision[]) from public, anon, authenticated;
revoke all on function public.limit_pause_read(text) from public, anon, authenticated;
revoke all on function public.limit_pause_set(text, double precision, integer) from public, anon, authenticated;
revoke all on function public.limit_pause_settle(text) from public, anon, authenticated;
grant execute on function public.limit_lease_take(text, integer, text, integer, integer) to service_role;
grant execute on function public.limit_lease_renew(bigint[], integer) to service_role;
grant execute on function public.limit_lease_release(bigint[]) to service_role;
grant execute on function public.limit_windows_take(text[], integer[], double precision[]) to service_role;
grant execute on function public.limit_pause_read(text) to service_role;
grant execute on function public.limit_pause_set(text, double precision, integer) to service_role;
grant execute on function public.limit_pause_settle(text) to service_role;
