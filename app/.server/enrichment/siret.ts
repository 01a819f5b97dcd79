/**
 * French company identifiers printed in legal notices (mentions légales): SIRET (14 digits) and SIREN (9 digits),
 * both Luhn-checked (app/domain/company-ids.ts).
 */
import { isValidSiren, isValidSiret } from '#app/domain/company-ids.ts'

/** Digits only, or null when `raw` (spaces, dots, dashes allowed) is not a valid SIRET. */
export function cleanSiret(raw: string | null | undefined): string | null {
  const digits = (raw ?? '').replace(/[\s.\-\u00a0\u202f]/g, '')
  return isValidSiret(digits) ? digits : null
}

// One separator between digit groups; a line break too ("Siret : 559 132 410<br>00056").
const GROUPED_DIGITS = '((?:\\d(?:[ .\\-\\u00a0\\u202f]|\\n)?){8,13}\\d)'
// Which establishment the number is: "SIRET (siège) :", "N° SIRET du siège social :", "SIRET de l'établissement :".
const ESTABLISHMENT = "(?:si[èe]ge(?:\\s+social)?|[ée]tablissement(?:\\s+principal)?|principal)"
const QUALIFIER = `(?:\\s*\\(\\s*${ESTABLISHMENT}\\s*\\)|\\s+(?:du\\s+|de\\s+l['’]\\s*)?${ESTABLISHMENT})?`
const SIRET_LABEL = new RegExp(`\\bSIRE[TN]\\b(?:\\s*(?:n[°o]\\.?|num[ée]ro|number|no\\.?))?${QUALIFIER}\\s*[:：]?\\s*${GROUPED_DIGITS}`, 'gi')
// "RCS de⏎Lyon sous le numéro 123 456 789": the city may sit on the next line (<br>, table cell).
const RCS_LABEL = /\bR\.?\s?C\.?\s?S\.?(?![\w.])[^\d]{0,40}?((?:\d[ .\u00a0\u202f]?){8}\d)(?!\d)/gi
// The register written out: "immatriculée au Registre du Commerce et des Sociétés de Nantes sous le numéro 501 983 761".
const RCS_WORDS = /\bregistre\s+du\s+commerce\s+et\s+des\s+soci[ée]t[ée]s\b[^\d]{0,60}?((?:\d[ .\u00a0\u202f]?){8}\d)(?!\d)/gi
// "850 616 327 R.C.S. Reims", "687 890 947 RM 68" (Répertoire des Métiers): the number before its register.
const NUMBER_THEN_REGISTER = /(?<![\d.])((?:\d[ .\u00a0\u202f]?){8}\d)\s*(?:R\.?\s?C\.?\s?S\.?|RM)(?![a-z])/gi
// "Répertoire des Métiers … n° 687 890 947"
const RM_LABEL = /\bR[ée]pertoire\s+des\s+m[ée]tiers\b[^\d]{0,60}?((?:\d[ .\u00a0\u202f]?){8}\d)(?!\d)/gi
// Intra-community VAT number: FR + 2-character key + SIREN ("FR 93 598058493").
const VAT_FR = /\bFR\s?[0-9A-HJ-NP-Z]{2}\s?((?:\d[ .\u00a0\u202f]?){8}\d)(?!\d)/g
// "SIREN / SIRET :⏎440 312 791 / 440 312 791 00088": two labels, then both numbers (either order) after them.
const PAIR_NUMBER = '((?:\\d[ .\\u00a0\\u202f]?){8,13}\\d)'
const PAIR_LABEL = new RegExp(`\\bSIRE[TN]\\s*(?:/|&|et|and|-|–)\\s*SIRE[TN]\\b\\s*(?:n[°o]\\.?\\s*)?[:：]?\\s*${PAIR_NUMBER}\\s*(?:/|&|-|–|,|;|\\n)\\s*${PAIR_NUMBER}(?!\\d)`, 'gi')
// "858 653 181 00025 (SIRET)": the label after the number.
const SIRET_AFTER = /(?<![\d.])((?:\d[ .\u00a0\u202f]?){13}\d)\s*\(?\s*SIRET\b/gi

export interface CompanyIds {
  siret: string | null
  siren: string | null
}

/** The first valid SIREN after any of the labels, tried in order. */
function firstSiren(text: string, patterns: RegExp[]): string | null {
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const digits = (match[1] as string).replace(/\D/g, '')
      if (isValidSiren(digits)) return digits
    }
  }
  return null
}

/** The numbers after a "SIREN / SIRET" label pair: the valid SIRET and SIREN among them, whatever their order. */
function pairIds(text: string): CompanyIds {
  for (const match of text.matchAll(PAIR_LABEL)) {
    const numbers = [match[1], match[2]].map((raw) => (raw as string).replace(/\D/g, ''))
    const siret = numbers.find((digits) => digits.length === 14 && isValidSiret(digits)) ?? null
    const siren = numbers.find((digits) => digits.length === 9 && isValidSiren(digits)) ?? null
    if (siret || siren) return { siret, siren: siret ? siret.slice(0, 9) : siren }
  }
  return { siret: null, siren: null }
}

/** The first valid SIRET (and a SIREN from it, or from a SIREN/RCS mention) in visible text. */
export function companyIdsFromText(text: string): CompanyIds {
  const pair = pairIds(text)
  if (pair.siret) return pair
  let siret: string | null = null
  let siren: string | null = pair.siren
  for (const match of text.matchAll(SIRET_LABEL)) {
    const digits = (match[1] as string).replace(/\D/g, '')
    if (!siret && digits.length === 14 && isValidSiret(digits)) siret = digits
    else if (!siren && digits.length === 9 && isValidSiren(digits)) siren = digits
    if (siret) break
  }
  if (!siret) {
    for (const match of text.matchAll(SIRET_AFTER)) {
      const digits = (match[1] as string).replace(/\D/g, '')
      if (isValidSiret(digits)) {
        siret = digits
        break
      }
    }
  }
  if (!siren && !siret) siren = firstSiren(text, [RCS_LABEL, RCS_WORDS, NUMBER_THEN_REGISTER, RM_LABEL, VAT_FR])
  return { siret, siren: siret ? siret.slice(0, 9) : siren }
}
