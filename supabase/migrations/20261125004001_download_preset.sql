-- The columns a user last downloaded (the download presets of app/domain/download-presets.ts): the export
-- page preselects it, so a user who imports into a CRM gets the CRM columns every time. One value per user,
-- so a column on public.users: its row-level security (owner-only select and update) already applies.
-- The check lists the presets: a new preset needs a migration widening it.
alter table public.users
  add column download_preset text not null default 'all'
  constraint users_download_preset_check check (download_preset in ('all', 'contacts', 'crm'));

comment on column public.users.download_preset is 'Download preset last used (all | contacts | crm); preselected on the next download.';

-- Users may change it as they change their settings fields (20261122000003_rls.sql grants column by column).
grant update (download_preset) on table public.users to authenticated;
