-- Every business phone of a lead (issue 12, item 3): leads.phone keeps the main number (the source's, else the first
-- found on the site); leads.phone_sources lists it with the others found on the site, each with its line type and
-- the page it was printed on ({number: {type, page, rank}}, rank 0 = leads.phone). public.record_lead_enrichment
-- fills leads.<task>_sources by convention, so the phone task writes it with no change to the function.
alter table public.leads add column phone_sources jsonb not null default '{}'::jsonb;
