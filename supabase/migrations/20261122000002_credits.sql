-- Credits move only through these functions (ARCHITECTURE §4): every change locks the user's
-- balance row and writes its ledger row in the same transaction, so balances never go negative
-- and a charge or reload is never applied twice, whatever the number of workers.
-- All are security definer with an empty search_path (every name below is schema-qualified).

create function public.apply_credit_change(
  p_user_id uuid,
  p_delta integer,
  p_reason text,
  p_idempotency_key text,
  p_export_id uuid default null,
  p_lead_id uuid default null,
  p_enrichment_type text default null,
  p_metadata jsonb default '{}'::jsonb
) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_remaining integer;
  v_total integer;
  v_new_remaining integer;
  v_new_total integer;
begin
  if p_user_id is null or p_delta is null or p_reason is null then
    raise exception 'apply_credit_change: user id, delta and reason are required' using errcode = '22004';
  end if;
  if p_reason in ('free_trial', 'subscription_reload') and p_delta < 0 then
    raise exception 'apply_credit_change: % needs a delta >= 0', p_reason using errcode = '22023';
  end if;
  if p_reason = 'enrichment' and p_delta >= 0 then
    raise exception 'apply_credit_change: enrichment is a debit (delta < 0)' using errcode = '22023';
  end if;

  -- The balance row normally exists from sign-up; create it on first use otherwise.
  insert into public.user_credits (user_id, remaining_credits, total_credits)
  values (p_user_id, 0, 0)
  on conflict (user_id) do nothing;

  -- Row lock: serialises all changes of this user's balance until commit.
  select c.remaining_credits, c.total_credits
    into v_remaining, v_total
    from public.user_credits c
   where c.user_id = p_user_id
     for update;

  if p_reason = 'subscription_reload' then
    -- A reload resets to the plan allowance; unused credits do not roll over.
    v_new_remaining := p_delta;
    v_new_total := p_delta;
  else
    v_new_remaining := v_remaining + p_delta;
    -- total is the denominator of the credits bar: grants raise it, debits do not.
    v_new_total := v_total + greatest(p_delta, 0);
  end if;

  if v_new_remaining < 0 then
    return false;
  end if;

  -- The unique idempotency key decides: an already used key (committed, or in flight in another
  -- transaction, which we then wait for) inserts nothing and the balance is left alone.
  insert into public.credit_ledger
    (user_id, delta, balance_after, reason, export_id, lead_id, enrichment_type, idempotency_key, metadata)
  values
    (p_user_id, v_new_remaining - v_remaining, v_new_remaining, p_reason, p_export_id, p_lead_id,
     p_enrichment_type, p_idempotency_key, coalesce(p_metadata, '{}'::jsonb))
  on conflict (idempotency_key) do nothing;
  if not found then
    return false;
  end if;

  update public.user_credits
     set remaining_credits = v_new_remaining,
         total_credits = v_new_total
   where user_id = p_user_id;
  return true;
end
$$;

comment on function public.apply_credit_change(uuid, integer, text, text, uuid, uuid, text, jsonb) is
  'Service only. Applies a credit change and its ledger row atomically; false (nothing changed) when the idempotency key was already used or a debit would go below zero. subscription_reload sets remaining = total = p_delta.';

-- SPEC §7 RPC. Callable by signed-in users, but only about themselves.
create function public.check_user_credits(p_user_id uuid, p_required_credits integer)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case
    -- The `role` setting still names the caller inside a security definer function: a request
    -- running as an API user role may only ask about auth.uid(). service_role and direct
    -- privileged connections (worker, billing) may ask about anyone.
    when pg_catalog.current_setting('role') in ('anon', 'authenticated')
         and p_user_id is distinct from auth.uid() then false
    else coalesce(
      (select c.remaining_credits >= p_required_credits
         from public.user_credits c
        where c.user_id = p_user_id),
      false)
  end
$$;

-- ---------------------------------------------------------------------------
-- Sign-up (the auth server inserts into auth.users): profile row from the sign-up metadata,
-- then the free-trial credits. Free-trial allowance = 100 credits (SPEC §9 leaves it open).
create function public.handle_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
begin
  insert into public.users (id, first_name, last_name, company_name, phone)
  values (
    new.id,
    nullif(btrim(v_meta ->> 'first_name'), ''),
    nullif(btrim(v_meta ->> 'last_name'), ''),
    nullif(btrim(coalesce(v_meta ->> 'company', v_meta ->> 'company_name')), ''),
    nullif(btrim(v_meta ->> 'phone'), '')
  )
  on conflict (id) do nothing;

  perform public.apply_credit_change(new.id, 100, 'free_trial', 'free_trial:' || new.id::text);
  return new;
end
$$;

drop trigger if exists on_auth_user_created on auth.users;
create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- ---------------------------------------------------------------------------
-- Functions are executable by PUBLIC by default, and Supabase (like bootstrap.sql) also grants
-- them to the API roles: take that back, then grant exactly what is meant.
revoke all on function public.apply_credit_change(uuid, integer, text, text, uuid, uuid, text, jsonb)
  from public, anon, authenticated;
grant execute on function public.apply_credit_change(uuid, integer, text, text, uuid, uuid, text, jsonb)
  to service_role;

revoke all on function public.check_user_credits(uuid, integer) from public, anon;
grant execute on function public.check_user_credits(uuid, integer) to authenticated, service_role;

revoke all on function public.handle_new_user() from public, anon, authenticated, service_role;
revoke all on function public.set_updated_at() from public, anon, authenticated, service_role;
