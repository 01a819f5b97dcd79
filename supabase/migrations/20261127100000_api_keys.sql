-- API keys (../shared/API.md "Authentication"): a user's keys for /api/v1. The key itself is shown once at creation
-- and never stored: only its SHA-256 (a key carries >= 190 random bits, so a fast hash cannot be brute-forced, and a
-- lookup by hash takes the same time whatever the guess). `prefix` (the first 8 characters) names it in lists and logs.
create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  prefix text not null check (length(prefix) = 8),
  key_hash bytea not null unique check (length(key_hash) = 32),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

create index api_keys_user_created_idx on public.api_keys (user_id, created_at desc, id);

comment on table public.api_keys is 'Per-user API keys: SHA-256 of the key, its prefix, last use and revocation.';

revoke all on table public.api_keys from anon, authenticated;
grant all on table public.api_keys to service_role;
-- The user lists, creates and revokes (sets revoked_at) their own keys; the hash is never read back by them.
grant select (id, user_id, name, prefix, created_at, last_used_at, revoked_at) on table public.api_keys to authenticated;
grant insert (user_id, name, prefix, key_hash) on table public.api_keys to authenticated;
grant update (revoked_at) on table public.api_keys to authenticated;

alter table public.api_keys enable row level security;

create policy api_keys_select_own on public.api_keys
  for select to authenticated using (user_id = (select auth.uid()));
create policy api_keys_insert_own on public.api_keys
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy api_keys_update_own on public.api_keys
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- POST /api/v1/exports with Idempotency-Key: the same key with the same body is the same export for 24 hours, with
-- another body a conflict. The fingerprint is a digest of the command as the server understood it.
alter table public.exports add column idempotency_fingerprint text;
comment on column public.exports.idempotency_fingerprint is 'Digest of the create command of an idempotency key: a reuse with another command is a conflict.';
