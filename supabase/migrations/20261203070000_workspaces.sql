-- Teams (issue 29): a workspace owns everything a team uses; people are its members with a role.
--
-- Decision (docs/teams.md): the `user_id` column of every data table (exports, leads, ledger, credits, subscriptions,
-- do-not-contact, API keys, webhooks, saved searches) now names the owning WORKSPACE. Every existing user gets a
-- personal workspace whose id is their user id, so every existing row already names its workspace: nothing moves,
-- nothing is lost, and a single user sees no difference. Renaming the columns would have rewritten every query for
-- no behavioural gain; the generated types and docs say what the column means. Rows also record which member
-- created them (`created_by`); the ledger records which member spent (`member_id`).
-- People-owned rows stay per person: users (profile, preferences) and notifications.

create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 80),
  -- Seats bought beyond the plan's (a billed quantity of Stripe's per-seat price, or the sandbox's).
  extra_seats integer not null default 0 check (extra_seats between 0 and 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger workspaces_set_updated_at before update on public.workspaces
  for each row execute function public.set_updated_at();

create table public.workspace_members (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null references public.users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'member', 'read_only')),
  -- Credits this member may spend per calendar month (UTC) from the team's pool; null: no cap.
  monthly_credit_cap integer check (monthly_credit_cap >= 0),
  created_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
-- Exactly one owner per workspace at any time (a transfer swaps roles in one transaction).
create unique index workspace_members_one_owner on public.workspace_members (workspace_id) where role = 'owner';
create index workspace_members_user_idx on public.workspace_members (user_id, created_at);

comment on table public.workspaces is 'A team (or one person''s personal workspace): owns exports, leads, credits, subscription, lists, keys, webhooks.';
comment on column public.workspace_members.monthly_credit_cap is 'Credits the member may spend per UTC calendar month from the pool; null = uncapped.';

-- Every existing user: a personal workspace with their id, of which they are the owner.
insert into public.workspaces (id, name)
select u.id,
       left(coalesce(nullif(btrim(u.company_name), ''), nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''),
                     nullif(split_part(a.email, '@', 1), ''), 'Workspace'), 80)
  from public.users u left join auth.users a on a.id = u.id
on conflict (id) do nothing;
insert into public.workspace_members (workspace_id, user_id, role)
select u.id, u.id, 'owner' from public.users u
on conflict do nothing;

-- ---------------------------------------------------------------------------
-- The workspace a request acts in: the one named by the server in the claims (`workspace_id`, set after the
-- server checked the switcher's choice) when the caller is a member of it, else their personal one, else their
-- oldest membership. Never a workspace the caller does not belong to, whatever the claims say.
create function public.current_workspace_id() returns uuid
language sql stable security definer set search_path = '' as $$
  select m.workspace_id
    from public.workspace_members m
   where m.user_id = auth.uid()
   order by (m.workspace_id::text = coalesce(nullif(pg_catalog.current_setting('request.jwt.claims', true), '')::jsonb ->> 'workspace_id', '')) desc,
            (m.workspace_id = auth.uid()) desc, m.created_at, m.workspace_id
   limit 1
$$;

create function public.current_workspace_role() returns text
language sql stable security definer set search_path = '' as $$
  select m.role from public.workspace_members m
   where m.user_id = auth.uid() and m.workspace_id = public.current_workspace_id()
$$;

revoke all on function public.current_workspace_id(), public.current_workspace_role() from public, anon;
grant execute on function public.current_workspace_id(), public.current_workspace_role() to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Foreign keys: data rows belong to a workspace (deleting a person no longer deletes a team's data).
do $$
declare
  t text;
begin
  foreach t in array array['user_credits', 'credit_ledger', 'user_subscriptions', 'exports', 'leads', 'export_leads',
    'billing_customers', 'billing_sandbox_subscriptions', 'enrichment_purchases', 'do_not_contact', 'api_keys',
    'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts', 'saved_searches']
  loop
    execute format('alter table public.%I drop constraint %I', t, t || '_user_id_fkey');
    execute format('alter table public.%I add constraint %I foreign key (user_id) references public.workspaces (id) on delete cascade',
      t, t || '_workspace_fkey');
  end loop;
end $$;
alter table public.billing_events drop constraint billing_events_user_id_fkey;
alter table public.billing_events add constraint billing_events_workspace_fkey
  foreign key (user_id) references public.workspaces (id) on delete set null;

-- Who created each shared row (the member a key acts for, the author of an export or a list entry).
alter table public.exports add column created_by uuid references public.users (id) on delete set null default auth.uid();
alter table public.saved_searches add column created_by uuid references public.users (id) on delete set null default auth.uid();
alter table public.do_not_contact add column created_by uuid references public.users (id) on delete set null default auth.uid();
alter table public.api_keys add column created_by uuid references public.users (id) on delete cascade default auth.uid();
alter table public.webhook_endpoints add column created_by uuid references public.users (id) on delete set null default auth.uid();
update public.exports set created_by = user_id where created_by is null;
update public.saved_searches set created_by = user_id where created_by is null;
update public.do_not_contact set created_by = user_id where created_by is null;
update public.api_keys set created_by = user_id where created_by is null;
update public.webhook_endpoints set created_by = user_id where created_by is null;
create index exports_created_by_idx on public.exports (user_id, created_by, created_at desc);
grant select (created_by) on table public.api_keys to authenticated;

-- The member who spent (enrichment debits and their refunds); null for grants (trial, reloads).
-- Not a foreign key, as export_id: history outlives a departed member.
alter table public.credit_ledger add column member_id uuid;
update public.credit_ledger set member_id = user_id where reason = 'enrichment';
create index credit_ledger_member_month_idx on public.credit_ledger (user_id, member_id, created_at) where member_id is not null;

-- ---------------------------------------------------------------------------
-- Row-level security: by membership of the current workspace.
drop policy user_credits_select_own on public.user_credits;
create policy user_credits_select_workspace on public.user_credits
  for select to authenticated using (user_id = (select public.current_workspace_id()));
drop policy credit_ledger_select_own on public.credit_ledger;
create policy credit_ledger_select_workspace on public.credit_ledger
  for select to authenticated using (user_id = (select public.current_workspace_id()));
drop policy user_subscriptions_select_own on public.user_subscriptions;
create policy user_subscriptions_select_workspace on public.user_subscriptions
  for select to authenticated using (user_id = (select public.current_workspace_id()));
drop policy enrichment_purchases_select_own on public.enrichment_purchases;
create policy enrichment_purchases_select_workspace on public.enrichment_purchases
  for select to authenticated using (user_id = (select public.current_workspace_id()));

drop policy exports_select_own on public.exports;
drop policy exports_insert_own on public.exports;
drop policy exports_update_own on public.exports;
drop policy exports_delete_own on public.exports;
create policy exports_select_workspace on public.exports
  for select to authenticated using (user_id = (select public.current_workspace_id()));
-- Read-only members view and download; writing needs member or above (the commands check it first).
create policy exports_insert_workspace on public.exports
  for insert to authenticated with check (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only');
create policy exports_update_workspace on public.exports
  for update to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only')
  with check (user_id = (select public.current_workspace_id()));
create policy exports_delete_workspace on public.exports
  for delete to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only');

drop policy leads_select_own on public.leads;
drop policy leads_insert_own on public.leads;
drop policy leads_update_own on public.leads;
drop policy leads_delete_own on public.leads;
create policy leads_select_workspace on public.leads
  for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy leads_insert_workspace on public.leads
  for insert to authenticated with check (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only');
create policy leads_update_workspace on public.leads
  for update to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only')
  with check (user_id = (select public.current_workspace_id()));
create policy leads_delete_workspace on public.leads
  for delete to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only');

drop policy export_leads_select_own on public.export_leads;
drop policy export_leads_insert_own on public.export_leads;
drop policy export_leads_update_own on public.export_leads;
drop policy export_leads_delete_own on public.export_leads;
create policy export_leads_select_workspace on public.export_leads
  for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy export_leads_insert_workspace on public.export_leads
  for insert to authenticated with check (
    user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only'
    and exists (select 1 from public.exports e where e.id = export_id and e.user_id = (select public.current_workspace_id()))
    and exists (select 1 from public.leads l where l.id = lead_id and l.user_id = (select public.current_workspace_id()))
  );
create policy export_leads_update_workspace on public.export_leads
  for update to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only')
  with check (
    user_id = (select public.current_workspace_id())
    and exists (select 1 from public.exports e where e.id = export_id and e.user_id = (select public.current_workspace_id()))
    and exists (select 1 from public.leads l where l.id = lead_id and l.user_id = (select public.current_workspace_id()))
  );
create policy export_leads_delete_workspace on public.export_leads
  for delete to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only');

drop policy do_not_contact_select_own on public.do_not_contact;
drop policy do_not_contact_insert_own on public.do_not_contact;
drop policy do_not_contact_delete_own on public.do_not_contact;
create policy do_not_contact_select_workspace on public.do_not_contact
  for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy do_not_contact_insert_workspace on public.do_not_contact
  for insert to authenticated with check (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only');
create policy do_not_contact_delete_workspace on public.do_not_contact
  for delete to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) in ('owner', 'admin'));

-- Keys: each member sees and revokes their own; owners and admins see and revoke every key of the workspace.
drop policy api_keys_select_own on public.api_keys;
drop policy api_keys_insert_own on public.api_keys;
drop policy api_keys_update_own on public.api_keys;
create policy api_keys_select_workspace on public.api_keys
  for select to authenticated using (
    user_id = (select public.current_workspace_id())
    and (created_by = (select auth.uid()) or (select public.current_workspace_role()) in ('owner', 'admin')));
create policy api_keys_insert_workspace on public.api_keys
  for insert to authenticated with check (user_id = (select public.current_workspace_id()) and created_by = (select auth.uid()));
create policy api_keys_update_workspace on public.api_keys
  for update to authenticated using (
    user_id = (select public.current_workspace_id())
    and (created_by = (select auth.uid()) or (select public.current_workspace_role()) in ('owner', 'admin')))
  with check (user_id = (select public.current_workspace_id()));

drop policy webhook_endpoints_select_own on public.webhook_endpoints;
drop policy webhook_deliveries_select_own on public.webhook_deliveries;
drop policy webhook_attempts_select_own on public.webhook_attempts;
create policy webhook_endpoints_select_workspace on public.webhook_endpoints for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy webhook_deliveries_select_workspace on public.webhook_deliveries for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy webhook_attempts_select_workspace on public.webhook_attempts for select to authenticated using (user_id = (select public.current_workspace_id()));

drop policy saved_searches_select_own on public.saved_searches;
drop policy saved_searches_insert_own on public.saved_searches;
drop policy saved_searches_update_own on public.saved_searches;
drop policy saved_searches_delete_own on public.saved_searches;
create policy saved_searches_select_workspace on public.saved_searches
  for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy saved_searches_insert_workspace on public.saved_searches
  for insert to authenticated with check (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only');
create policy saved_searches_update_workspace on public.saved_searches
  for update to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only')
  with check (user_id = (select public.current_workspace_id()));
create policy saved_searches_delete_workspace on public.saved_searches
  for delete to authenticated using (user_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) <> 'read_only');

-- Workspaces and members: visible to their members; every change goes through server commands.
revoke all on table public.workspaces, public.workspace_members from anon, authenticated;
grant all on table public.workspaces, public.workspace_members to service_role;
grant select on table public.workspaces, public.workspace_members to authenticated;
alter table public.workspaces enable row level security;
alter table public.workspace_members enable row level security;
create policy workspaces_select_member on public.workspaces
  for select to authenticated using (exists (select 1 from public.workspace_members m where m.workspace_id = id and m.user_id = (select auth.uid())));
-- A member sees the members of the current workspace (the team page) and their own memberships (the switcher).
create policy workspace_members_select on public.workspace_members
  for select to authenticated using (user_id = (select auth.uid()) or workspace_id = (select public.current_workspace_id()));

-- ---------------------------------------------------------------------------
-- Credits: one pool per workspace. A debit records its member (given, or the export's author) and holds to the
-- member's monthly cap under the pool's row lock, so two exports of one member cannot both pass it.
drop function public.apply_credit_change(uuid, integer, text, text, uuid, uuid, text, jsonb);

create function public.apply_credit_change(
  p_user_id uuid,
  p_delta integer,
  p_reason text,
  p_idempotency_key text,
  p_export_id uuid default null,
  p_lead_id uuid default null,
  p_enrichment_type text default null,
  p_metadata jsonb default '{}'::jsonb,
  p_member_id uuid default null
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
  v_member uuid := p_member_id;
  v_cap integer;
  v_spent integer;
begin
  if p_user_id is null or p_delta is null or p_reason is null then
    raise exception 'apply_credit_change: workspace id, delta and reason are required' using errcode = '22004';
  end if;
  if p_reason in ('free_trial', 'subscription_reload') and p_delta < 0 then
    raise exception 'apply_credit_change: % needs a delta >= 0', p_reason using errcode = '22023';
  end if;
  if p_reason = 'enrichment' and p_delta >= 0 then
    raise exception 'apply_credit_change: enrichment is a debit (delta < 0)' using errcode = '22023';
  end if;

  insert into public.user_credits (user_id, remaining_credits, total_credits)
  values (p_user_id, 0, 0)
  on conflict (user_id) do nothing;

  -- Row lock: serialises all changes of this workspace's pool until commit.
  select c.remaining_credits, c.total_credits
    into v_remaining, v_total
    from public.user_credits c
   where c.user_id = p_user_id
     for update;

  if v_member is null and p_export_id is not null and p_reason in ('enrichment', 'adjustment') then
    select e.created_by into v_member from public.exports e where e.id = p_export_id and e.user_id = p_user_id;
  end if;

  if p_reason = 'subscription_reload' then
    v_new_remaining := p_delta;
    v_new_total := p_delta;
  else
    v_new_remaining := v_remaining + p_delta;
    v_new_total := v_total + greatest(p_delta, 0);
  end if;

  if v_new_remaining < 0 then
    return false;
  end if;

  if p_delta < 0 and v_member is not null then
    select m.monthly_credit_cap into v_cap from public.workspace_members m
     where m.workspace_id = p_user_id and m.user_id = v_member;
    if v_cap is not null then
      select coalesce(-sum(l.delta), 0) into v_spent from public.credit_ledger l
       where l.user_id = p_user_id and l.member_id = v_member
         and l.created_at >= date_trunc('month', now() at time zone 'utc') at time zone 'utc';
      if greatest(v_spent, 0) - p_delta > v_cap then
        -- The recorder treats LA402 as "no credits for this member": the lead stays pending, nothing is charged.
        raise exception 'monthly credit cap reached' using errcode = 'LA402', detail = 'member_cap';
      end if;
    end if;
  end if;

  insert into public.credit_ledger
    (user_id, delta, balance_after, reason, export_id, lead_id, enrichment_type, idempotency_key, metadata, member_id)
  values
    (p_user_id, v_new_remaining - v_remaining, v_new_remaining, p_reason, p_export_id, p_lead_id,
     p_enrichment_type, p_idempotency_key, coalesce(p_metadata, '{}'::jsonb), v_member)
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

comment on function public.apply_credit_change(uuid, integer, text, text, uuid, uuid, text, jsonb, uuid) is
  'Service only. Applies a credit change of a workspace pool and its ledger row atomically; false (nothing changed) when the idempotency key was already used or a debit would go below zero; raises LA402 past the member''s monthly cap.';

revoke all on function public.apply_credit_change(uuid, integer, text, text, uuid, uuid, text, jsonb, uuid)
  from public, anon, authenticated;
grant execute on function public.apply_credit_change(uuid, integer, text, text, uuid, uuid, text, jsonb, uuid)
  to service_role;

-- What a member may still spend: the pool, or less when their monthly cap leaves less.
create function public.member_spendable(p_workspace_id uuid, p_member_id uuid) returns integer
language sql stable security definer set search_path = '' as $$
  select least(
    coalesce((select c.remaining_credits from public.user_credits c where c.user_id = p_workspace_id), 0),
    coalesce((
      select greatest(m.monthly_credit_cap - coalesce((
               select -sum(l.delta) from public.credit_ledger l
                where l.user_id = p_workspace_id and l.member_id = p_member_id
                  and l.created_at >= date_trunc('month', now() at time zone 'utc') at time zone 'utc'), 0), 0)
        from public.workspace_members m
       where m.workspace_id = p_workspace_id and m.user_id = p_member_id and m.monthly_credit_cap is not null),
      2147483647))
$$;
revoke all on function public.member_spendable(uuid, uuid) from public, anon;
grant execute on function public.member_spendable(uuid, uuid) to authenticated, service_role;

create or replace function public.check_user_credits(p_user_id uuid, p_required_credits integer)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case
    -- A request as an API user role may only ask about a workspace it belongs to.
    when pg_catalog.current_setting('role') in ('anon', 'authenticated')
         and not exists (select 1 from public.workspace_members m where m.workspace_id = p_user_id and m.user_id = auth.uid()) then false
    else coalesce(
      (select c.remaining_credits >= p_required_credits
         from public.user_credits c
        where c.user_id = p_user_id),
      false)
  end
$$;

-- Sign-up: the profile, the personal workspace (its id is the user's) with its owner, then the free trial.
create or replace function public.handle_new_user() returns trigger
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

  insert into public.workspaces (id, name)
  values (new.id, left(coalesce(
    nullif(btrim(coalesce(v_meta ->> 'company', v_meta ->> 'company_name')), ''),
    nullif(btrim(concat_ws(' ', v_meta ->> 'first_name', v_meta ->> 'last_name')), ''),
    nullif(split_part(new.email, '@', 1), ''), 'Workspace'), 80))
  on conflict (id) do nothing;
  insert into public.workspace_members (workspace_id, user_id, role) values (new.id, new.id, 'owner')
  on conflict do nothing;

  perform public.apply_credit_change(new.id, 100, 'free_trial', 'free_trial:' || new.id::text);
  return new;
end
$$;

-- ---------------------------------------------------------------------------
-- Notifications go to a person: the export's author while a member, else the workspace's owner.
create function public.workspace_recipient(p_workspace_id uuid, p_member_id uuid) returns uuid
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select m.user_id from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_member_id),
    (select m.user_id from public.workspace_members m where m.workspace_id = p_workspace_id and m.role = 'owner'))
$$;
revoke all on function public.workspace_recipient(uuid, uuid) from public, anon, authenticated;
grant execute on function public.workspace_recipient(uuid, uuid) to service_role;

create or replace function public.notify_export_event() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  v_recipient uuid := public.workspace_recipient(new.user_id, new.created_by);
begin
  if (new.saved_search_id is not null and new.status = 'completed') or v_recipient is null then
    return null;
  end if;
  insert into public.notifications (user_id, kind, data)
  values (v_recipient, 'export.' || new.status, jsonb_build_object(
    'exportId', new.id, 'name', new.name, 'leadCount', new.lead_count, 'credits', new.total_credits_used,
    'reason', new.enrichment_status_details ->> 'reason'));
  return null;
end $$;

create or replace function public.saved_search_run_ended() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  search_name text;
  v_recipient uuid := public.workspace_recipient(new.user_id, new.created_by);
begin
  update public.saved_searches s
     set last_new_count = new.lead_count, last_credits = new.total_credits_used
   where s.id = new.saved_search_id and s.user_id = new.user_id and s.last_export_id = new.id
  returning s.name into search_name;
  if new.status = 'completed' and new.lead_count > 0 and v_recipient is not null then
    select coalesce(search_name, s.name) into search_name from public.saved_searches s
     where s.id = new.saved_search_id and s.user_id = new.user_id;
    if search_name is not null then
      insert into public.notifications (user_id, kind, data)
      values (v_recipient, 'saved_search.new_businesses', jsonb_build_object(
        'savedSearchId', new.saved_search_id, 'exportId', new.id, 'name', search_name, 'newCount', new.lead_count,
        'credits', new.total_credits_used));
    end if;
  end if;
  return null;
end $$;

revoke all on function public.current_workspace_id() from public;
revoke all on function public.handle_new_user() from public, anon, authenticated, service_role;

-- A person's account deleted: a workspace they owned alone goes with them (as their data always did); a team they
-- owned passes to its senior admin (else member), so the team's data outlives its owner's departure.
create function public.hand_over_workspaces() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_workspace uuid;
  v_next uuid;
begin
  for v_workspace in select m.workspace_id from public.workspace_members m where m.user_id = old.id and m.role = 'owner' loop
    select m.user_id into v_next from public.workspace_members m
     where m.workspace_id = v_workspace and m.user_id <> old.id
     order by case m.role when 'admin' then 0 when 'member' then 1 else 2 end, m.created_at, m.user_id
     limit 1;
    if v_next is null then
      delete from public.workspaces where id = v_workspace;
    else
      delete from public.workspace_members where workspace_id = v_workspace and user_id = old.id;
      update public.workspace_members set role = 'owner', monthly_credit_cap = null where workspace_id = v_workspace and user_id = v_next;
    end if;
  end loop;
  return old;
end $$;
revoke all on function public.hand_over_workspaces() from public, anon, authenticated, service_role;

create trigger users_hand_over_workspaces before delete on public.users
  for each row execute function public.hand_over_workspaces();
