-- Teams (issue 29 items 3 and 8): invitations by email and the team's activity log.

-- An invitation: the link's token is 256 random bits, kept only as its SHA-256 (the link is the credential, like a
-- password reset's); single use, 7 days. One pending invitation per address and workspace (a resend replaces its token).
create table public.workspace_invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null check (length(email) between 3 and 320),
  role text not null check (role in ('admin', 'member', 'read_only')),
  monthly_credit_cap integer check (monthly_credit_cap >= 0),
  token_hash bytea not null unique check (length(token_hash) = 32),
  invited_by uuid references public.users (id) on delete set null,
  created_at timestamptz not null default now(),
  sent_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by uuid references public.users (id) on delete set null,
  revoked_at timestamptz
);
create unique index workspace_invitations_one_pending on public.workspace_invitations (workspace_id, lower(email))
  where accepted_at is null and revoked_at is null;
create index workspace_invitations_workspace_idx on public.workspace_invitations (workspace_id, created_at desc);

-- The activity log: who did what in the team, for its owners and admins. Written by the server's commands only.
create table public.team_events (
  id bigserial primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  actor_id uuid references public.users (id) on delete set null,
  kind text not null check (kind in (
    'member_invited', 'invitation_resent', 'invitation_revoked', 'member_joined', 'member_removed', 'member_left',
    'role_changed', 'cap_changed', 'ownership_transferred', 'workspace_renamed', 'seats_changed',
    'api_key_created', 'api_key_revoked', 'webhook_created', 'webhook_deleted', 'dnc_added', 'dnc_removed')),
  -- Who or what the event is about, as shown in the log (an email, a key's name, an endpoint's URL).
  subject text check (length(subject) <= 400),
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index team_events_workspace_idx on public.team_events (workspace_id, created_at desc, id desc);

revoke all on table public.workspace_invitations, public.team_events from anon, authenticated;
revoke all on sequence public.team_events_id_seq from anon, authenticated;
grant all on table public.workspace_invitations, public.team_events to service_role;
grant all on sequence public.team_events_id_seq to service_role;
grant select (id, workspace_id, email, role, monthly_credit_cap, invited_by, created_at, sent_at, expires_at, accepted_at, revoked_at)
  on table public.workspace_invitations to authenticated;
grant select on table public.team_events to authenticated;
-- A command running as the member (withUser) records its own event: in its workspace, as itself only.
grant insert (workspace_id, actor_id, kind, subject, data) on table public.team_events to authenticated;
grant usage on sequence public.team_events_id_seq to authenticated;

alter table public.workspace_invitations enable row level security;
alter table public.team_events enable row level security;
create policy workspace_invitations_select_admins on public.workspace_invitations
  for select to authenticated using (
    workspace_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) in ('owner', 'admin'));
create policy team_events_insert_own on public.team_events
  for insert to authenticated with check (workspace_id = (select public.current_workspace_id()) and actor_id = (select auth.uid()));
create policy team_events_select_admins on public.team_events
  for select to authenticated using (
    workspace_id = (select public.current_workspace_id()) and (select public.current_workspace_role()) in ('owner', 'admin'));
