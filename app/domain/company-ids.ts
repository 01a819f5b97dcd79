/**
 * French company identifiers: SIREN (9 digits, the company) and SIRET (14 digits, one establishment: SIREN + NIC),
 * both Luhn-checked. La Poste's establishments (SIREN 356 000 000) follow their own rule: digit sum divisible by 5.
 * Pure: the legal-notice extractor (app/.server/enrichment/siret.ts) and the do-not-contact import share them.
 */

export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

const LA_POSTE_SIREN = '356000000'

export function isValidSiren(value: string): boolean {
  return /^\d{9}$/.test(value) && value !== '000000000' && luhnValid(value)
}

export function isValidSiret(value: string): boolean {
  if (!/^\d{14}$/.test(value) || /^0+$/.test(value)) return false
  const siren = value.slice(0, 9)
  if (siren === LA_POSTE_SIREN) return [...value].reduce((sum, d) => sum + Number(d), 0) % 5 === 0
  return isValidSiren(siren) && luhnValid(value)
}
