-- Signed webhooks (../shared/API.md "Webhooks"): a user's endpoints, the deliveries owed to them and every attempt.
-- The secret signs deliveries, so it is kept in clear; it is only ever readable by the server (service_role). Users
-- read their rows through row-level security; every write goes through server code (app/.server/webhooks/).
create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  url text not null check (length(url) between 1 and 2000),
  events text[] not null check (cardinality(events) > 0),
  secret text not null check (secret like 'whsec\_%'),
  enabled boolean not null default true,
  disabled_at timestamptz,
  -- 'failing' (3 days of failures, by the worker) or 'user' (switched off in the settings).
  disabled_reason text check (disabled_reason in ('failing', 'user')),
  -- The first failure of the current run of failures; null once a delivery succeeds.
  failing_since timestamptz,
  created_at timestamptz not null default now()
);

create index webhook_endpoints_user_idx on public.webhook_endpoints (user_id, created_at desc, id);
-- The outbox trigger looks up a user's live endpoints per event.
create index webhook_endpoints_events_idx on public.webhook_endpoints using gin (events) where enabled;

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  user_id uuid not null references public.users (id) on delete cascade,
  event_type text not null check (event_type in ('export.completed', 'export.failed', 'export.interrupted', 'saved_search.run_completed', 'test')),
  -- Sent as `webhook-id`: the receiver's deduplication key (a redelivery keeps it).
  message_id text not null default 'msg_' || replace(gen_random_uuid()::text, '-', ''),
  -- The export the event is about (its object is read at the first attempt).
  export_id uuid,
  -- When the event happened: the body's `timestamp`.
  occurred_at timestamptz not null default now(),
  -- Frozen at the first attempt, so every retry sends the same bytes.
  payload jsonb,
  -- pending (waiting for next_attempt_at) → queued (a job is on its way) → delivering → succeeded / failed.
  state text not null default 'pending' check (state in ('pending', 'queued', 'delivering', 'succeeded', 'failed')),
  attempt_count integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- While queued or delivering: past this time, the claim has lapsed (a dead worker) and the delivery is taken again.
  lease_until timestamptz,
  created_at timestamptz not null default now()
);

create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where state = 'pending';
create index webhook_deliveries_lease_idx on public.webhook_deliveries (lease_until) where state in ('queued', 'delivering');
create index webhook_deliveries_endpoint_idx on public.webhook_deliveries (endpoint_id, created_at desc, id);

create table public.webhook_attempts (
  id uuid primary key default gen_random_uuid(),
  delivery_id uuid not null references public.webhook_deliveries (id) on delete cascade,
  user_id uuid not null references public.users (id) on delete cascade,
  attempted_at timestamptz not null,
  -- null when no answer came (timeout, refused connection, SSRF guard).
  http_status integer,
  duration_ms integer not null check (duration_ms >= 0),
  response_excerpt text check (length(response_excerpt) <= 1024),
  error text check (length(error) <= 500)
);

create index webhook_attempts_delivery_idx on public.webhook_attempts (delivery_id, attempted_at desc);

comment on table public.webhook_endpoints is 'Webhook endpoints: URL, events, signing secret (server only), enabled state.';
comment on table public.webhook_deliveries is 'Webhook outbox: one row per event per endpoint, with its retry state.';
comment on table public.webhook_attempts is 'Every delivery attempt: time, HTTP status, duration, start of the answer, error.';

revoke all on table public.webhook_endpoints, public.webhook_deliveries, public.webhook_attempts from anon, authenticated;
grant all on table public.webhook_endpoints, public.webhook_deliveries, public.webhook_attempts to service_role;
-- Never the secret: it is shown once by the server, when created or rotated.
grant select (id, user_id, url, events, enabled, disabled_at, disabled_reason, failing_since, created_at) on table public.webhook_endpoints to authenticated;
grant select (id, endpoint_id, user_id, event_type, message_id, export_id, occurred_at, state, attempt_count, next_attempt_at, created_at) on table public.webhook_deliveries to authenticated;
grant select on table public.webhook_attempts to authenticated;

alter table public.webhook_endpoints enable row level security;
alter table public.webhook_deliveries enable row level security;
alter table public.webhook_attempts enable row level security;
create policy webhook_endpoints_select_own on public.webhook_endpoints for select to authenticated using (user_id = (select auth.uid()));
create policy webhook_deliveries_select_own on public.webhook_deliveries for select to authenticated using (user_id = (select auth.uid()));
create policy webhook_attempts_select_own on public.webhook_attempts for select to authenticated using (user_id = (select auth.uid()));

-- The outbox: in the transaction that changes an export's status, one delivery per enabled endpoint of its owner
-- subscribed to the event. The saved searches migration replaces this function to add saved_search.run_completed.
create function public.enqueue_export_webhooks() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  event text;
begin
  event := case
    when new.status in ('completed', 'failed', 'interrupted') then 'export.' || new.status
  end;
  if event is null then
    return null;
  end if;
  insert into public.webhook_deliveries (endpoint_id, user_id, event_type, export_id)
  select e.id, e.user_id, event, new.id
  from public.webhook_endpoints e
  where e.user_id = new.user_id and e.enabled and event = any (e.events);
  return null;
end $$;

revoke all on function public.enqueue_export_webhooks() from public, anon, authenticated;

create trigger exports_webhooks
  after update of status on public.exports
  for each row
  when (old.status is distinct from new.status)
  execute function public.enqueue_export_webhooks();
