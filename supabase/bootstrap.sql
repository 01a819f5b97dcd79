-- Local bootstrap: recreates what hosted Supabase provides before any migration runs
-- (roles, the auth schema, auth.users, auth.uid()/auth.jwt()), plus the tables the local
-- auth server keeps for itself (sessions, refresh tokens, outbox). Idempotent: it runs on
-- every `npm start`. Never run it against hosted Supabase.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then create role authenticator noinherit login; end if;
end $$;

grant anon, authenticated, service_role to authenticator;
-- The app's connection user switches into these roles with `set local role`.
grant anon, authenticated, service_role to current_user;

create extension if not exists pgcrypto;
create extension if not exists citext;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud varchar(255) default 'authenticated',
  role varchar(255) default 'authenticated',
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb default '{}'::jsonb,
  raw_user_meta_data jsonb default '{}'::jsonb,
  is_anonymous boolean not null default false,
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);
create unique index if not exists users_email_partial_key on auth.users (lower(email));

create or replace function auth.uid() returns uuid language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

-- Local auth server bookkeeping (hosted Supabase has its own equivalents).
create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users(id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  aal text not null default 'aal1'
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) not null unique,
  user_id uuid not null references auth.users(id) on delete cascade,
  session_id uuid not null references auth.sessions(id) on delete cascade,
  revoked boolean not null default false,
  parent varchar(255),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id);

create table if not exists auth.local_outbox (
  id bigserial primary key,
  to_email text not null,
  subject text not null,
  body_text text not null,
  link text,
  created_at timestamptz not null default now()
);

-- Hosted Supabase grants the API roles access to objects in public by default; RLS does the rest.
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;

-- Local auth server additions (append-only, idempotent).
-- How a session was established, for the access token's `amr` claim ("password" on sign-in,
-- "otp" after a recovery link, as hosted Supabase reports it); refreshed_at mirrors hosted.
alter table auth.sessions add column if not exists authentication_method text not null default 'password';
alter table auth.sessions add column if not exists refreshed_at timestamptz;
-- Recovery tokens are looked up by their hash when a reset link is verified.
create index if not exists users_recovery_token_idx on auth.users (recovery_token) where recovery_token is not null;
create index if not exists local_outbox_to_email_idx on auth.local_outbox (lower(to_email), id desc);

-- The embedded cluster's login role for the app (server/embedded-roles.ts creates it; no superuser, owns no table).
-- It switches into the API roles like the hosted connection user does, and inherits service_role's grants for the
-- privileged work (worker, billing); the local auth server and the mailbox use the auth tables (the default
-- privileges cover auth tables added below this block later).
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'leadatlas_app') then
    grant anon, authenticated, service_role to leadatlas_app;
    grant usage on schema auth to leadatlas_app;
    grant select, insert, update, delete on all tables in schema auth to leadatlas_app;
    grant usage, select on all sequences in schema auth to leadatlas_app;
    alter default privileges in schema auth grant select, insert, update, delete on tables to leadatlas_app;
    alter default privileges in schema auth grant usage, select on sequences to leadatlas_app;
  end if;
end $$;
