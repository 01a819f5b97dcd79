-- Per-export callbacks (issue 28 item 10): POST /api/v1/exports may name a `webhook_url`, Outscraper-style. It is
-- delivered through a hidden endpoint of its own (export_id set), so signing, retries, the delivery log, per-user
-- fairness and the SSRF re-check are the subscriptions' own. Such an endpoint is no subscription: the server code
-- (app/.server/webhooks/endpoints.ts) never lists, counts, changes or tests it, and it goes with its export.
alter table public.exports
  add column webhook_url text check (length(webhook_url) between 1 and 2000);

comment on column public.exports.webhook_url is 'The callback URL the export was created with (POST /api/v1/exports), shown by GET.';

alter table public.webhook_endpoints
  add column export_id uuid references public.exports (id) on delete cascade;

comment on column public.webhook_endpoints.export_id is 'Set for an export''s callback (not a subscription): it only ever receives that export''s events, each at most once.';

-- One callback per export; the trigger finds it by its export.
create unique index webhook_endpoints_export_idx on public.webhook_endpoints (export_id) where export_id is not null;
-- A user's subscriptions, as listed and counted, without the callbacks of all their exports.
create index webhook_endpoints_subscriptions_idx on public.webhook_endpoints (user_id, created_at desc, id) where export_id is null;

-- Readable by its owner like the other columns (row-level security already keeps rows to their owner); still never
-- the secret.
grant select (export_id) on table public.webhook_endpoints to authenticated;

-- The outbox (saved searches migration's version), plus the export's own callback: each event at most once (a
-- completed export that gets more enrichments completes again; its callback was already told).
create or replace function public.enqueue_export_webhooks() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  event_types text[];
begin
  if new.status not in ('completed', 'failed', 'interrupted') then
    return null;
  end if;
  event_types := array['export.' || new.status];
  if new.saved_search_id is not null and new.status = 'completed' then
    event_types := event_types || 'saved_search.run_completed'::text;
  end if;
  insert into public.webhook_deliveries (endpoint_id, user_id, event_type, export_id)
  select e.id, e.user_id, event, new.id
  from public.webhook_endpoints e, unnest(event_types) as event
  where e.user_id = new.user_id and e.export_id is null and e.enabled and event = any (e.events);
  insert into public.webhook_deliveries (endpoint_id, user_id, event_type, export_id)
  select e.id, e.user_id, event, new.id
  from public.webhook_endpoints e, unnest(event_types) as event
  where e.export_id = new.id and e.user_id = new.user_id and e.enabled and event = any (e.events)
    and not exists (select 1 from public.webhook_deliveries d where d.endpoint_id = e.id and d.event_type = event);
  return null;
end $$;
