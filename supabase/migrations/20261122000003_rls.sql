-- Row-level security and table privileges (ARCHITECTURE §4): every user-facing query runs as
-- role `authenticated` with the user's JWT claims, so these policies are the access control.
-- The worker and billing use a privileged connection (service_role / owner), which bypasses RLS.
--
-- Privileges first: hosted Supabase (and bootstrap.sql) grant ALL on new public tables to anon,
-- authenticated and service_role. ALL includes TRUNCATE, TRIGGER and REFERENCES, which RLS does
-- not govern, so take everything back and grant exactly what each table needs.

revoke all on table
  public.users, public.user_credits, public.credit_ledger, public.user_subscriptions,
  public.exports, public.leads, public.export_leads, public.enrichment_cache
  from anon, authenticated;
revoke all on sequence public.credit_ledger_id_seq from anon, authenticated;

grant all on table
  public.users, public.user_credits, public.credit_ledger, public.user_subscriptions,
  public.exports, public.leads, public.export_leads, public.enrichment_cache
  to service_role;
grant all on sequence public.credit_ledger_id_seq to service_role;

-- anon: nothing at all. authenticated:
-- profile: read, and edit the settings fields only (not id or timestamps).
grant select on table public.users to authenticated;
grant update (first_name, last_name, company_name, phone) on table public.users to authenticated;
-- credits, ledger and subscriptions: read only; they change through security definer
-- functions and the billing webhooks.
grant select on table public.user_credits, public.credit_ledger, public.user_subscriptions to authenticated;
-- the user's own exports and leads: full CRUD.
grant select, insert, update, delete on table public.exports, public.leads, public.export_leads to authenticated;
-- enrichment_cache: worker only.

alter table public.users enable row level security;
alter table public.user_credits enable row level security;
alter table public.credit_ledger enable row level security;
alter table public.user_subscriptions enable row level security;
alter table public.exports enable row level security;
alter table public.leads enable row level security;
alter table public.export_leads enable row level security;
alter table public.enrichment_cache enable row level security;

-- `(select auth.uid())` is evaluated once per statement instead of once per row.

create policy users_select_own on public.users
  for select to authenticated using (id = (select auth.uid()));
create policy users_update_own on public.users
  for update to authenticated using (id = (select auth.uid())) with check (id = (select auth.uid()));

create policy user_credits_select_own on public.user_credits
  for select to authenticated using (user_id = (select auth.uid()));

create policy credit_ledger_select_own on public.credit_ledger
  for select to authenticated using (user_id = (select auth.uid()));

create policy user_subscriptions_select_own on public.user_subscriptions
  for select to authenticated using (user_id = (select auth.uid()));

create policy exports_select_own on public.exports
  for select to authenticated using (user_id = (select auth.uid()));
create policy exports_insert_own on public.exports
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy exports_update_own on public.exports
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy exports_delete_own on public.exports
  for delete to authenticated using (user_id = (select auth.uid()));

create policy leads_select_own on public.leads
  for select to authenticated using (user_id = (select auth.uid()));
create policy leads_insert_own on public.leads
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy leads_update_own on public.leads
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy leads_delete_own on public.leads
  for delete to authenticated using (user_id = (select auth.uid()));

-- A link row must join the user's own export to the user's own lead: foreign key checks ignore
-- RLS, so without the exists() clauses a user could attach rows to someone else's export.
-- (The subqueries are themselves filtered by the exports/leads policies above.)
create policy export_leads_select_own on public.export_leads
  for select to authenticated using (user_id = (select auth.uid()));
create policy export_leads_insert_own on public.export_leads
  for insert to authenticated with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.exports e where e.id = export_id and e.user_id = (select auth.uid()))
    and exists (select 1 from public.leads l where l.id = lead_id and l.user_id = (select auth.uid()))
  );
create policy export_leads_update_own on public.export_leads
  for update to authenticated using (user_id = (select auth.uid())) with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.exports e where e.id = export_id and e.user_id = (select auth.uid()))
    and exists (select 1 from public.leads l where l.id = lead_id and l.user_id = (select auth.uid()))
  );
create policy export_leads_delete_own on public.export_leads
  for delete to authenticated using (user_id = (select auth.uid()));

-- enrichment_cache: RLS on and no policy, so only bypassing roles (worker) see it.
