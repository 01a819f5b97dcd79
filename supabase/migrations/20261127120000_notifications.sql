-- Notifications (issue 21 item 4): what the user is told, in the app (the bell) and by email (each kind switchable
-- in /settings). Export events are written by a trigger on the export's status, in the transaction that changes it
-- (an outbox, like the webhooks'): each transition is told once whichever code path makes it. Saved-search events
-- are written by the run (app/.server/notifications/store.ts notify()). The worker emails the pending ones.
create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  kind text not null check (kind in ('export.completed', 'export.failed', 'export.interrupted', 'saved_search.new_businesses', 'saved_search.refused')),
  -- What the message names: the export (id, name, leads, credits) or the saved search (id, name, new businesses, reason).
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  -- pending: the worker decides (the user's preference) and sends; sent / skipped (switched off) / failed: done.
  email_state text not null default 'pending' check (email_state in ('pending', 'sending', 'sent', 'skipped', 'failed')),
  emailed_at timestamptz
);

create index notifications_user_created_idx on public.notifications (user_id, created_at desc, id);
create index notifications_unread_idx on public.notifications (user_id) where read_at is null;
create index notifications_email_pending_idx on public.notifications (created_at) where email_state = 'pending';

comment on table public.notifications is 'What a user is told (in-app list and email): export ends, saved-search runs.';

revoke all on table public.notifications from anon, authenticated;
grant all on table public.notifications to service_role;
-- The user reads their notifications and marks them read; the server writes them.
grant select on table public.notifications to authenticated;
grant update (read_at) on table public.notifications to authenticated;

alter table public.notifications enable row level security;
create policy notifications_select_own on public.notifications
  for select to authenticated using (user_id = (select auth.uid()));
create policy notifications_update_own on public.notifications
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- Email preferences: on by default (people expect to hear that a long export is done), each switchable.
alter table public.users
  add column notify_export_completed boolean not null default true,
  add column notify_export_failed boolean not null default true,
  add column notify_export_interrupted boolean not null default true,
  add column notify_saved_search boolean not null default true;
grant update (notify_export_completed, notify_export_failed, notify_export_interrupted, notify_saved_search) on table public.users to authenticated;

create function public.notify_export_event() returns trigger
  language plpgsql security definer set search_path = '' as $$
begin
  insert into public.notifications (user_id, kind, data)
  values (new.user_id, 'export.' || new.status, jsonb_build_object(
    'exportId', new.id, 'name', new.name, 'leadCount', new.lead_count, 'credits', new.total_credits_used,
    'reason', new.enrichment_status_details ->> 'reason'));
  return null;
end $$;

revoke all on function public.notify_export_event() from public, anon, authenticated;

create trigger exports_notification
  after update of status on public.exports
  for each row
  when (old.status is distinct from new.status and new.status in ('completed', 'failed', 'interrupted'))
  execute function public.notify_export_event();
