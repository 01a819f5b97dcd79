-- A webhook endpoint disabled after failing for 3 days tells its owner (API.md "Webhooks"), in the app and by email.
alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check
  check (kind in ('export.completed', 'export.failed', 'export.interrupted', 'saved_search.new_businesses', 'saved_search.refused', 'webhook.disabled'));
