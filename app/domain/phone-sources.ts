// Every business phone of a lead (leads.phone_sources), as the file and the leads table read it. leads.phone keeps
// the main number (the source's when it gave one, else the first found on the site); phone_sources lists it with
// the others, each with its type and the page it was printed on. Pure: shared by client and server.
import { isRecord, text } from './lead-file-values.ts'

/**
 * What kind of line a number is (libphonenumber's getType() folded, app/.server/enrichment/phones.ts). Written as
 * these codes in both file languages, like the email checks: a CRM import maps codes, not translations.
 */
const PHONE_TYPES = ['mobile', 'landline', 'toll_free', 'voip', 'other'] as const
export type PhoneType = (typeof PHONE_TYPES)[number]

interface PhoneSource {
  type: PhoneType
  /** The page it was found on; null when the lead source gave it. */
  page: string | null
  /** 0 for the main number, then the order found (homepage first, tel: links before text). */
  rank: number
}

/** leads.phone_sources: international number → its source. */
export type PhoneSources = Record<string, PhoneSource>

export interface ListedPhone {
  number: string
  type: PhoneType
}

/** The numbers of a stored phone_sources value, main first; anything malformed is skipped. */
export function listPhones(sources: unknown): ListedPhone[] {
  if (!isRecord(sources)) return []
  return Object.entries(sources)
    .flatMap(([number, source]) => {
      if (!isRecord(source)) return []
      const type = PHONE_TYPES.find((t) => t === source.type) ?? 'other'
      return [{ number, type, rank: typeof source.rank === 'number' ? source.rank : Number.MAX_SAFE_INTEGER }]
    })
    .sort((a, b) => a.rank - b.rank)
    .map(({ number, type }) => ({ number, type }))
}

const digits = (number: string) => number.replace(/[^\d+]/g, '')

/** The main number's type (leads.phone looked up in phone_sources), or null when it is not listed. */
export function mainPhoneType(phone: unknown, sources: unknown): PhoneType | null {
  const main = text(phone)
  if (!main) return null
  return listPhones(sources).find((listed) => digits(listed.number) === digits(main))?.type ?? null
}

/**
 * The numbers other than the main one: "mobile: +33 6 12 34 56 78; landline: +33 1 …". Type first: a cell starting
 * with "+" and holding more than a number would be neutralised as a possible formula (download/formulas.ts).
 */
export function formatOtherPhones(phone: unknown, sources: unknown): string | null {
  const main = digits(text(phone) ?? '')
  const others = listPhones(sources).filter((listed) => digits(listed.number) !== main)
  return others.length ? others.map((listed) => `${listed.type}: ${listed.number}`).join('; ') : null
}

/** The first number other than the main one that is a mobile, or null. */
export function otherMobile(phone: unknown, sources: unknown): string | null {
  const main = digits(text(phone) ?? '')
  return listPhones(sources).find((listed) => listed.type === 'mobile' && digits(listed.number) !== main)?.number ?? null
}
