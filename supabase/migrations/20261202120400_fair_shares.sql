-- Fair shares of the shared budgets between accounts (app/.server/limits/fair.ts): the registry's 7 requests/s, the
-- Overpass slots, the Google Places minute. Whoever asks first no longer wins: a unit that frees goes to the account
-- served least recently among those waiting for it (round-robin between accounts, FIFO within one), so a victim waits
-- about one unit behind three floods, not behind their whole queue. Server-side only: RLS on and no policy.

-- One row per budget key and account that asked lately: until when it counts as waiting (each ask refreshes it; a
-- process that died or gave up stops counting after p_hold_ms) and when it was last served (the round-robin order).
-- Times are epoch ms on the database's clock.
create table public.limit_fair (
  key text not null,
  account text not null,
  waiting_until double precision not null default 0,
  served_at double precision not null default 0,
  primary key (key, account)
);
alter table public.limit_fair enable row level security;
revoke all on public.limit_fair from anon, authenticated;
grant select, insert, update, delete on public.limit_fair to service_role;

-- Whether p_account may take one of the p_free units of p_key free now: it is one of the p_free least recently served
-- accounts waiting on the key, itself counted as waiting from now on (for p_hold_ms). Called by the take functions
-- below under the key's lock, so two processes read the same order. Rows idle for an hour are dropped: an account back
-- after that is served as a newcomer.
create function public.limit_fair_turn(p_key text, p_account text, p_free integer, p_hold_ms double precision, p_now double precision)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  delete from public.limit_fair f where f.key = p_key and greatest(f.waiting_until, f.served_at) < p_now - 3600000;
  insert into public.limit_fair (key, account, waiting_until) values (p_key, p_account, p_now + p_hold_ms)
    on conflict (key, account) do update set waiting_until = greatest(public.limit_fair.waiting_until, excluded.waiting_until);
  if p_free <= 0 then
    return false;
  end if;
  return exists (
    select 1 from (
      select f.account from public.limit_fair f where f.key = p_key and f.waiting_until > p_now
        order by f.served_at, f.account limit p_free
    ) turn where turn.account = p_account
  );
end;
$$;

-- Whether another account than p_account waits on p_key now.
create function public.limit_fair_others(p_key text, p_account text, p_now double precision)
returns boolean
language sql
set search_path = ''
as $$
  select exists (select 1 from public.limit_fair f where f.key = p_key and f.account <> p_account and f.waiting_until > p_now);
$$;

-- p_account was granted a unit: it goes to the back of the round-robin, still waiting when p_more.
create function public.limit_fair_served(p_key text, p_account text, p_more boolean, p_hold_ms double precision, p_now double precision)
returns void
language sql
set search_path = ''
as $$
  update public.limit_fair set served_at = p_now, waiting_until = case when p_more then p_now + p_hold_ms else 0 end
    where key = p_key and account = p_account;
$$;

revoke all on function public.limit_fair_turn(text, text, integer, double precision, double precision) from public, anon, authenticated;
revoke all on function public.limit_fair_others(text, text, double precision) from public, anon, authenticated;
revoke all on function public.limit_fair_served(text, text, boolean, double precision, double precision) from public, anon, authenticated;

-- Leases with an account: as before (global_limits.sql), and among accounts waiting on the key the slots go
-- round-robin: one slot a call while another account waits, as many as asked for when the account is alone.
drop function public.limit_lease_take(text, integer, text, integer, integer);
create function public.limit_lease_take(
  p_key text, p_limit integer, p_holder text, p_ttl_ms integer, p_count integer, p_account text default null, p_hold_ms double precision default 1000
)
returns setof bigint
language plpgsql
set search_path = ''
as $$
declare
  free integer;
  granted integer;
  now_ms double precision := extract(epoch from clock_timestamp()) * 1000;
begin
  perform pg_advisory_xact_lock(23, hashtext(p_key));
  delete from public.limit_leases where key = p_key and expires_at <= clock_timestamp();
  free := greatest(0, p_limit - (select count(*) from public.limit_leases where key = p_key));
  granted := least(p_count, free);
  if p_account is not null then
    if not public.limit_fair_turn(p_key, p_account, free, p_hold_ms, now_ms) then
      granted := 0;
    elsif public.limit_fair_others(p_key, p_account, now_ms) then
      granted := least(granted, 1);
    end if;
    if granted > 0 then
      perform public.limit_fair_served(p_key, p_account, p_count > granted, p_hold_ms, now_ms);
    end if;
  end if;
  return query
    insert into public.limit_leases (key, holder, expires_at)
      select p_key, p_holder, clock_timestamp() + make_interval(secs => p_ttl_ms / 1000.0) from generate_series(1, granted)
      returning id;
end;
$$;
revoke all on function public.limit_lease_take(text, integer, text, integer, integer, text, double precision) from public, anon, authenticated;
grant execute on function public.limit_lease_take(text, integer, text, integer, integer, text, double precision) to service_role;

-- Windows with an account: as before (global_limits.sql); when every window has room, the account must also have its
-- turn among the accounts waiting on p_fair_key, else it is told to ask again in 50 ms (nothing counted). A per-account
-- cap (a share of a day) is one more window in p_keys, counted with the others (all or none).
drop function public.limit_windows_take(text[], integer[], double precision[]);
create function public.limit_windows_take(
  p_keys text[], p_limits integer[], p_window_ms double precision[], p_fair_key text default null, p_account text default null, p_hold_ms double precision default 1000
)
returns double precision
language plpgsql
set search_path = ''
as $$
declare
  now_ms double precision := extract(epoch from clock_timestamp()) * 1000;
  wait double precision := 0;
  starts double precision[] := '{}';
  room integer;
  i integer;
  start_ double precision;
  used_ integer;
begin
  insert into public.limit_windows (key, window_start)
    select k, 0 from unnest(p_keys) k order by k on conflict (key) do nothing;
  perform 1 from public.limit_windows where key = any(p_keys) order by key for update;
  if p_fair_key is not null then
    -- Takers of one fair key are serialized, so they read one round-robin order.
    perform pg_advisory_xact_lock(24, hashtext(p_fair_key));
  end if;
  for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
    start_ := floor(now_ms / p_window_ms[i]) * p_window_ms[i];
    starts := starts || start_;
    select case when w.window_start = start_ then w.used else 0 end into used_ from public.limit_windows w where w.key = p_keys[i];
    room := least(coalesce(room, p_limits[i] - used_), p_limits[i] - used_);
    if used_ >= p_limits[i] then
      wait := greatest(wait, start_ + p_window_ms[i] - now_ms);
    end if;
  end loop;
  if wait > 0 then
    -- Waiting for the next window: in line for it. A refusal past a minute (a day spent, an account's cap) is one
    -- callers give up on, not a wait: such an account must not hold a place in the line.
    if p_fair_key is not null and p_account is not null and wait <= 60000 then
      perform public.limit_fair_turn(p_fair_key, p_account, 0, wait + p_hold_ms, now_ms);
    end if;
    return wait;
  end if;
  if p_fair_key is not null and p_account is not null then
    if not public.limit_fair_turn(p_fair_key, p_account, coalesce(room, 1), p_hold_ms, now_ms) then
      return 50;
    end if;
    perform public.limit_fair_served(p_fair_key, p_account, false, p_hold_ms, now_ms);
  end if;
  for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
    update public.limit_windows
      set used = case when window_start = starts[i] then used + 1 else 1 end, window_start = starts[i]
      where key = p_keys[i];
  end loop;
  return 0;
end;
$$;
revoke all on function public.limit_windows_take(text[], integer[], double precision[], text, text, double precision) from public, anon, authenticated;
grant execute on function public.limit_windows_take(text[], integer[], double precision[], text, text, double precision) to service_role;

-- The registry budget with an account (registry_limits.sql): the class shares are unchanged; within a class, the
-- slots it may take go round-robin between the accounts waiting for one (key p_key:p_class).
drop function public.registry_limiter_take(text, text, integer, double precision, integer, boolean, double precision);
create function public.registry_limiter_take(
  p_key text, p_class text, p_limit integer, p_window_ms double precision, p_share integer, p_more boolean, p_stale_ms double precision,
  p_account text default null, p_account_more boolean default false,
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
  next_free double precision;
  own_next_free double precision;
  other_waiting boolean;
  free integer;
  -- A waiting account asks again at most a window after its refusal (the wait below), give or take a busy process.
  hold double precision := p_window_ms + 500;
  i integer;
begin
  insert into public.registry_limiter (key) values (p_key) on conflict (key) do nothing;
  select * into row_ from public.registry_limiter where key = p_key for update;
  slot := null;
  if row_.paused_until > now_ms then
    wait_ms := row_.paused_until - now_ms;
    if p_account is not null then
      perform public.limit_fair_turn(p_key || ':' || p_class, p_account, 0, wait_ms + hold, now_ms);
    end if;
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
    select 1 from jsonb_each_text(row_.demand) d where d.key <> p_class and d.value::double precision > now_ms - 2 * p_window_ms
  ) into other_waiting;
  -- The slots this class may take now: all the free ones, or what is left of its share while the other class waits.
  free := p_limit - coalesce(array_length(times, 1), 0);
  if other_waiting then
    free := least(free, p_share - own);
  end if;
  if free > 0 and (p_account is null or public.limit_fair_turn(p_key || ':' || p_class, p_account, free, hold, now_ms)) then
    if p_account is not null then
      perform public.limit_fair_served(p_key || ':' || p_class, p_account, p_account_more, hold, now_ms);
    end if;
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
  if free > 0 then
    -- A slot is free but another account's turn: it takes it within milliseconds, or loses its turn after `hold`.
    wait_ms := 50;
  elsif coalesce(array_length(times, 1), 0) >= p_limit then
    wait_ms := greatest(1, coalesce(next_free - now_ms, 50));
  else
    wait_ms := greatest(1, coalesce(own_next_free - now_ms, 50));
  end if;
  if p_account is not null and free <= 0 then
    perform public.limit_fair_turn(p_key || ':' || p_class, p_account, 0, wait_ms + hold, now_ms);
  end if;
end;
$$;
revoke all on function public.registry_limiter_take(text, text, integer, double precision, integer, boolean, double precision, text, boolean) from public, anon, authenticated;
grant execute on function public.registry_limiter_take(text, text, integer, double precision, integer, boolean, double precision, text, boolean) to service_role;
