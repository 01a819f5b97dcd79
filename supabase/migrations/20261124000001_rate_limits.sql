-- Rate-limit counters (rate-limiter-flexible's Postgres store), shared by every app instance and
-- the local auth server. Keys are SHA-256 digests: no email or IP address is stored in clear.
create table if not exists public.rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
-- Server-side only: RLS on and no policy, so the API roles cannot read or reset a counter.
alter table public.rate_limits enable row level security;
revoke all on public.rate_limits from anon, authenticated;
