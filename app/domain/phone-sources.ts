// Every business phone of a lead (leads.phone_sources), as the file and the leads table read it. leads.phone keeps
// the main number (the source's when it gave one, else the first found on the site); phone_sources lists it with
// the others, each with its type and the page it was printed on. Pure: shared by client and server.
import type { FileLabel, FileLang } from './file-language.ts'
import { isRecord, text } from './lead-file-values.ts'

/** What kind of line a number is (libphonenumber's getType() folded, app/.server/enrichment/phones.ts). */
const PHONE_TYPES = ['mobile', 'landline', 'toll_free', 'voip', 'other'] as const
export type PhoneType = (typeof PHONE_TYPES)[number]

const PHONE_TYPE_LABELS: Record<PhoneType, FileLabel> = {
  mobile: { en: 'mobile', fr: 'mobile' },
  landline: { en: 'landline', fr: 'fixe' },
  toll_free: { en: 'toll-free', fr: 'numéro vert' },
  voip: { en: 'VoIP', fr: 'VoIP' },
  other: { en: 'other', fr: 'autre' },
}

export function phoneTypeLabel(type: PhoneType | null, lang: FileLang): string | null {
  return type ? PHONE_TYPE_LABELS[type][lang] : null
}

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

interface RankedPhone extends ListedPhone {
  rank: number
}

function rankedPhones(sources: unknown): RankedPhone[] {
  if (!isRecord(sources)) return []
  return Object.entries(sources)
    .flatMap(([number, source]) => {
      if (!isRecord(source)) return []
      const type = PHONE_TYPES.find((t) => t === source.type) ?? 'other'
      return [{ number, type, rank: typeof source.rank === 'number' ? source.rank : Number.MAX_SAFE_INTEGER }]
    })
    .sort((a, b) => a.rank - b.rank)
}

/** The numbers of a stored phone_sources value, main first; anything malformed is skipped. */
export function listPhones(sources: unknown): ListedPhone[] {
  return rankedPhones(sources).map(({ number, type }) => ({ number, type }))
}

const digits = (number: string) => number.replace(/[^\d+]/g, '')

/**
 * Whether a listed number is the lead's main one: rank 0 is the main number by construction; the digits comparison
 * also catches a main number stored in another format (a source's national "02 98 …").
 */
function isMain(listed: RankedPhone, phone: unknown): boolean {
  const main = text(phone)
  return main !== null && (listed.rank === 0 || digits(listed.number) === digits(main))
}

/**
 * The listed numbers split once (one parse and sort of the sources): the main one, when listed, and the others in
 * their order. Readers of one row that need both (the API's lead) call this instead of the two below.
 */
export function splitPhones(phone: unknown, sources: unknown): { main: ListedPhone | null; others: ListedPhone[] } {
  let main: ListedPhone | null = null
  const others: ListedPhone[] = []
  for (const listed of rankedPhones(sources)) {
    const { number, type } = listed
    if (!isMain(listed, phone)) others.push({ number, type })
    else main ??= { number, type }
  }
  return { main, others }
}

/** The main number's type (leads.phone in phone_sources), or null when there is no main number or it is not listed. */
export function mainPhoneType(phone: unknown, sources: unknown): PhoneType | null {
  return splitPhones(phone, sources).main?.type ?? null
}

/** The numbers other than the main one, in their order. */
export function otherPhones(phone: unknown, sources: unknown): ListedPhone[] {
  return splitPhones(phone, sources).others
}

/**
 * The numbers other than the main one: "mobile: +33 6 12 34 56 78; landline: +33 1 …". Type first: a cell starting
 * with "+" and holding more than a number would be neutralised as a possible formula (download/formulas.ts).
 */
export function formatOtherPhones(phone: unknown, sources: unknown, lang: FileLang): string | null {
  const others = otherPhones(phone, sources)
  return others.length ? others.map((listed) => `${phoneTypeLabel(listed.type, lang)}: ${listed.number}`).join('; ') : null
}

/** The first number other than the main one that is a mobile, or null. */
export function otherMobile(phone: unknown, sources: unknown): string | null {
  return otherPhones(phone, sources).find((listed) => listed.type === 'mobile')?.number ?? null
}
