-- The do-not-contact list (opt-outs, issue "Credits users can trust"): per user, what no export may ever deliver.
-- kind/value are written once in canonical form by app/domain/do-not-contact.ts (lowercase email/domain, E.164 phone,
-- digits for SIREN/SIRET, `<source>:<place id>` for one business), so the unique key also deduplicates.
-- Every export's search phase reads it (lead gates) and its email results are filtered by it.
create table public.do_not_contact (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  kind text not null check (kind in ('email', 'domain', 'phone', 'siren', 'siret', 'business')),
  value text not null check (length(value) between 1 and 320),
  created_at timestamptz not null default now(),
  unique (user_id, kind, value)
);

-- The settings page lists the newest first, paged.
create index do_not_contact_user_created_idx on public.do_not_contact (user_id, created_at desc, id);

comment on table public.do_not_contact is 'Per-user opt-outs: businesses left out of every export, addresses removed from results.';

revoke all on table public.do_not_contact from anon, authenticated;
grant all on table public.do_not_contact to service_role;
-- The user manages their own list: read, add, remove (entries are never edited, only replaced).
grant select, insert, delete on table public.do_not_contact to authenticated;

alter table public.do_not_contact enable row level security;

create policy do_not_contact_select_own on public.do_not_contact
  for select to authenticated using (user_id = (select auth.uid()));
create policy do_not_contact_insert_own on public.do_not_contact
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy do_not_contact_delete_own on public.do_not_contact
  for delete to authenticated using (user_id = (select auth.uid()));
