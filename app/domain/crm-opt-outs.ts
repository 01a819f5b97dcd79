// The do-not-contact list applied to a CRM record at push time. Apart from app/domain/crm.ts because it needs the
// list's phone rules (libphonenumber), which the pages that only name providers and fields must not ship.
import type { ApiLead } from './api-lead.ts'
import type { CrmRecord } from './crm.ts'
import { allowedEmails, dncExclusionReason, type DncIndex } from './do-not-contact.ts'

/**
 * The record as the do-not-contact list allows it today (an opt-out may have come since the export ran, from the CRM
 * itself): null when the business is excluded, else with only the addresses that may be contacted.
 */
export function allowedRecord(record: CrmRecord, lead: ApiLead, index: DncIndex): CrmRecord | null {
  const registry = lead.enrichments.admin_fr_info
  const excluded = dncExclusionReason(index, {
    source: lead.source,
    placeId: lead.source_id ?? '',
    website: lead.website,
    phones: [lead.phone_e164 ?? lead.phone].filter((phone): phone is string => Boolean(phone)),
    emails: record.contacts.map((contact) => contact.email),
    companies: registry?.siren || registry?.siret ? [{ siren: registry.siren, siret: registry.siret }] : [],
    countryCode: lead.country_code,
  })
  if (excluded) return null
  const allowed = new Set(allowedEmails(index, record.contacts.map((contact) => contact.email)))
  return { ...record, contacts: record.contacts.filter((contact) => allowed.has(contact.email)) }
}
