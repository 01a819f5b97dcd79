-- CRM push (issue 30): a workspace's connections to HubSpot, Pipedrive, Brevo and Google Sheets, its pushes of an
-- export's leads (one report row per lead), and what each connection remembers of the records it made (the CRM's
-- id under every dedupe key), so that a second push updates instead of creating.
-- Connections belong to the workspace (`user_id`, as every data table: docs/teams.md). Their secret is encrypted by
-- the server (AES-256-GCM, INTEGRATIONS_ENCRYPTION_KEY) and never granted to the signed-in role: reads run as the
-- user under RLS, writes run on the privileged connection after the command checked the role.

create table public.crm_connections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.workspaces (id) on delete cascade,
  provider text not null check (provider in ('hubspot', 'pipedrive', 'brevo', 'sheets')),
  label text not null check (length(label) between 1 and 80),
  secret_ciphertext text not null,
  -- What the page shows of the secret (its first and last characters).
  secret_hint text not null check (length(secret_hint) <= 40),
  -- What the adapter remembers (custom field keys, the sheet): written by the server only.
  settings jsonb not null default '{}'::jsonb,
  mapping jsonb not null default '{}'::jsonb,
  -- The last test or push that failed for the connection as a whole (refused credentials, a missing sheet).
  last_error text check (length(last_error) <= 500),
  last_checked_at timestamptz,
  -- Opt-outs read back (HubSpot, Brevo): where the next read starts, and when it last ran.
  opt_out_cursor text check (length(opt_out_cursor) <= 100),
  opt_outs_synced_at timestamptz,
  created_by uuid references public.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index crm_connections_user_idx on public.crm_connections (user_id, created_at, id);

create table public.crm_pushes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.workspaces (id) on delete cascade,
  connection_id uuid not null references public.crm_connections (id) on delete cascade,
  export_id uuid not null references public.exports (id) on delete cascade,
  -- null: every lead of the export; else the chosen ones.
  lead_ids uuid[] check (lead_ids is null or cardinality(lead_ids) between 1 and 10000),
  -- Set when a saved search's run pushed it (only that run's new businesses are in the export).
  saved_search_id uuid references public.saved_searches (id) on delete set null,
  status text not null default 'queued' check (status in ('queued', 'running', 'completed', 'failed')),
  total integer not null default 0 check (total >= 0),
  created integer not null default 0 check (created >= 0),
  updated integer not null default 0 check (updated >= 0),
  skipped integer not null default 0 check (skipped >= 0),
  failed integer not null default 0 check (failed >= 0),
  error text check (length(error) <= 500),
  idempotency_key text check (length(idempotency_key) <= 255),
  created_by uuid references public.users (id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  -- Written with each batch: a running push whose worker died stops beating, and is taken up again.
  heartbeat_at timestamptz,
  finished_at timestamptz,
  unique (user_id, idempotency_key)
);
create index crm_pushes_export_idx on public.crm_pushes (export_id, created_at desc);
create index crm_pushes_user_idx on public.crm_pushes (user_id, created_at desc, id);

-- One line of a push's report per lead: what the CRM did with it, and its own words when it refused.
create table public.crm_push_items (
  push_id uuid not null references public.crm_pushes (id) on delete cascade,
  lead_id uuid not null references public.leads (id) on delete cascade,
  user_id uuid not null references public.workspaces (id) on delete cascade,
  outcome text not null check (outcome in ('created', 'updated', 'skipped', 'failed')),
  remote_id text check (length(remote_id) <= 200),
  reason text check (length(reason) <= 500),
  pushed_at timestamptz not null default now(),
  primary key (push_id, lead_id)
);

-- The connection's memory of its records: every dedupe key (siret:…, siren:…, domain:…, id:…) of a pushed business
-- names the CRM record it went to, whichever export pushed it.
create table public.crm_records (
  connection_id uuid not null references public.crm_connections (id) on delete cascade,
  key text not null check (length(key) <= 300),
  user_id uuid not null references public.workspaces (id) on delete cascade,
  remote_id text not null check (length(remote_id) <= 200),
  updated_at timestamptz not null default now(),
  primary key (connection_id, key)
);

-- A saved search may push each run's new businesses to connections of its workspace.
alter table public.saved_searches add column push_connection_ids uuid[] not null default '{}'
  check (cardinality(push_connection_ids) <= 4);
-- Chosen on the edit page as the member (the command keeps only the workspace's own connections).
grant update (push_connection_ids) on table public.saved_searches to authenticated;

-- An opt-out read back from a CRM names it (null: added in LeadAtlas).
alter table public.do_not_contact add column source text check (source in ('hubspot', 'brevo'));

alter table public.team_events drop constraint team_events_kind_check;
alter table public.team_events add constraint team_events_kind_check check (kind in (
  'member_invited', 'invitation_resent', 'invitation_revoked', 'member_joined', 'member_removed', 'member_left',
  'role_changed', 'cap_changed', 'ownership_transferred', 'workspace_renamed', 'seats_changed',
  'api_key_created', 'api_key_revoked', 'webhook_created', 'webhook_deleted', 'dnc_added', 'dnc_removed',
  'crm_connected', 'crm_disconnected'));

alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check
  check (kind in ('export.completed', 'export.failed', 'export.interrupted', 'saved_search.new_businesses', 'saved_search.refused', 'webhook.disabled', 'crm_push.failed'));

comment on table public.crm_connections is 'A workspace''s CRM connections: provider, encrypted secret (server only), mapping, adapter settings.';
comment on table public.crm_pushes is 'Pushes of an export''s leads to a CRM connection, with their counts.';
comment on table public.crm_push_items is 'Per-lead report of a push: created, updated, skipped or failed (with the CRM''s reason).';
comment on table public.crm_records is 'The CRM record each dedupe key of a pushed business went to, per connection.';

revoke all on table public.crm_connections, public.crm_pushes, public.crm_push_items, public.crm_records from anon, authenticated;
grant all on table public.crm_connections, public.crm_pushes, public.crm_push_items, public.crm_records to service_role;
-- The secret's ciphertext is not granted: a member reading connections (or an RLS bug) never sees it.
grant select (id, user_id, provider, label, secret_hint, settings, mapping, last_error, last_checked_at, opt_outs_synced_at, created_by, created_at, updated_at)
  on table public.crm_connections to authenticated;
grant select on table public.crm_pushes, public.crm_push_items to authenticated;

alter table public.crm_connections enable row level security;
alter table public.crm_pushes enable row level security;
alter table public.crm_push_items enable row level security;
alter table public.crm_records enable row level security;

create policy crm_connections_select_workspace on public.crm_connections
  for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy crm_pushes_select_workspace on public.crm_pushes
  for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy crm_push_items_select_workspace on public.crm_push_items
  for select to authenticated using (user_id = (select public.current_workspace_id()));
-- crm_records: server only (no policy for authenticated: RLS refuses every row).

-- "Push every run": when a saved search's run completes with new businesses, one push per chosen connection is
-- queued in the same transaction (the worker's sweep hands it to pg-boss). A run is pushed once per connection.
create function public.crm_push_saved_search_run() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.crm_pushes (user_id, connection_id, export_id, saved_search_id, created_by, idempotency_key)
  select new.user_id, c.id, new.id, s.id, coalesce(new.created_by, s.created_by), 'saved-search-run:' || new.id || ':' || c.id
    from public.saved_searches s
    join public.crm_connections c on c.id = any (s.push_connection_ids) and c.user_id = new.user_id
   where s.id = new.saved_search_id and s.user_id = new.user_id
  on conflict (user_id, idempotency_key) do nothing;
  return null;
end;
$$;
revoke all on function public.crm_push_saved_search_run() from public, anon, authenticated;

create trigger exports_crm_push_saved_search_run
  after update of status on public.exports
  for each row
  when (new.status = 'completed' and old.status is distinct from 'completed' and new.saved_search_id is not null and new.lead_count > 0)
  execute function public.crm_push_saved_search_run();

create index crm_pushes_queued_idx on public.crm_pushes (created_at) where status in ('queued', 'running');
