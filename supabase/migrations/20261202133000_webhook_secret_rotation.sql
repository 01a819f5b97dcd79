-- Secret rotation with an overlap (Standard Webhooks): while previous_secret_expires_at is ahead, deliveries carry a
-- signature with the previous secret too, so receivers can switch secrets without refusing a delivery. Kept in
-- clear like `secret` and, like it, never granted to authenticated (its column grants are an explicit list).
alter table public.webhook_endpoints
  add column previous_secret text check (previous_secret like 'whsec\_%'),
  add column previous_secret_expires_at timestamptz,
  add constraint webhook_endpoints_previous_secret_pair check ((previous_secret is null) = (previous_secret_expires_at is null));
