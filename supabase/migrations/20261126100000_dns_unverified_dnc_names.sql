-- Issue 19, item 15: a run whose email checks found DNS unusable (a resolver answering NXDOMAIN for everything, its
-- canary domain included) delivers those addresses as "unverified"; the export page says verification was unavailable.
alter table public.exports add column if not exists email_verification_unavailable boolean not null default false;

comment on column public.exports.email_verification_unavailable is
  'Set by the run when an email check came back unverified (DNS unusable): the export page warns about it.';

-- Issue 19, item 6: a "never export this business" entry keeps the business''s name and city as the user's leads
-- had them when it was added, so the list stays readable after the export (and its leads) are deleted.
alter table public.do_not_contact add column if not exists business_name text;
alter table public.do_not_contact add column if not exists business_city text;

do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'do_not_contact_business_label_length') then
    alter table public.do_not_contact add constraint do_not_contact_business_label_length
      check (length(business_name) <= 500 and length(business_city) <= 200);
  end if;
end
$$;
