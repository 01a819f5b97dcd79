-- Partial diffusion (statut de diffusion "P"): a person who asked INSEE not to spread their establishment's data. The
-- Sirene files' terms (data.gouv.fr) forbid using such data for prospecting, so the watch and "created after" never
-- deliver these rows; they stay in the store for the risk shield's facts (a company active or not).
alter table public.registry_establishments add column diffusion text not null default 'O' check (diffusion in ('O', 'P'));
