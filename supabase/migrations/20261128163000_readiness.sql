-- Readiness (/readyz, app/.server/observability/health.ts) compares the migrations shipped with the app with the ones
-- applied. The app's own role may not read supabase_migrations (the Supabase CLI's bookkeeping schema): this
-- function reads the versions for it, and only for the server-side role.
create function public.applied_migration_versions()
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select version from supabase_migrations.schema_migrations
$$;
revoke all on function public.applied_migration_versions() from public, anon, authenticated;
grant execute on function public.applied_migration_versions() to service_role;
