// The CRMs a workspace can push to, and their names: a module of its own so that a page naming a CRM (the
// do-not-contact list's "from HubSpot") ships nothing else of the push's rules.

export const CRM_PROVIDERS = ['hubspot', 'pipedrive', 'brevo', 'sheets'] as const
export type CrmProvider = (typeof CRM_PROVIDERS)[number]

export function isCrmProvider(value: unknown): value is CrmProvider {
  return typeof value === 'string' && (CRM_PROVIDERS as readonly string[]).includes(value)
}

/** Product names: brands, the same in every language. */
export const CRM_PROVIDER_NAMES: Record<CrmProvider, string> = { hubspot: 'HubSpot', pipedrive: 'Pipedrive', brevo: 'Brevo', sheets: 'Google Sheets' }
