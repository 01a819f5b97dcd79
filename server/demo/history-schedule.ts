/**
 * The course of one story (history-stories.ts) started on a day: its judgments and when the BODACC publishes
 * them, the Sirene closure and the radiation of a company that ends. Pure and deterministic: the same story and
 * start always give the same events, so any day's events can be listed again.
 */
import { hashString, Rng } from '#app/.server/sources/demo/prng.ts'
import type { Judgment } from './history-bodacc.ts'
import type { Story } from './history-stories.ts'

export interface ScheduledEvent {
  /** Its rank in the story: the key a rectificatif or an annulation points at. */
  index: number
  kind: 'annonce' | 'rectificatif' | 'annulation' | 'radiation' | 'closure'
  /** Publication day (BODACC) or processing day (Sirene closure), as a day number. */
  on: number
  judgment?: Judgment
  /** Closure and radiation: the day the company ceased. */
  closedOn?: number
  corrects?: { index: number; on: number }
}

const LIQUIDATORS = ['Maître Dupont', 'Maître Lefèvre', 'Maître Garnier', 'Maître Rousseau', 'Maître Bonnet', 'Maître Fabre']
const RECTIFIED_SHARE = 0.04

const dayOf = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10)
const frenchDate = (n: number) => {
  const [y, m, d] = dayOf(n).split('-').map(Number) as [number, number, number]
  const months = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre']
  return `${d === 1 ? '1er' : d} ${months[m - 1]} ${y}`
}
const weekday = (n: number) => new Date(n * 86_400_000).getUTCDay()
/** Courts sit on weekdays. */
const courtDay = (n: number) => (weekday(n) === 6 ? n + 2 : weekday(n) === 0 ? n + 1 : n)
const publicationDay = (n: number) => {
  let day = n
  while (weekday(day) === 0 || weekday(day) === 1) day++
  return day
}
const processingDay = (n: number) => (dayOf(n).endsWith('-01') ? n + 1 : n)

function opening(variant: Story['variant'], on: number, rng: Rng): Judgment {
  const ceased = frenchDate(on - rng.int(20, 120))
  const who = rng.pick(LIQUIDATORS)
  if (variant.startsWith('liquidation')) {
    return { famille: "Jugement d'ouverture", nature: "Jugement d'ouverture de liquidation judiciaire", date: dayOf(on), complementJugement: `Jugement prononçant la liquidation judiciaire, date de cessation des paiements le ${ceased}, désignant liquidateur ${who}.` }
  }
  if (variant.startsWith('redressement')) {
    return { famille: "Jugement d'ouverture", nature: "Jugement d'ouverture d'une procédure de redressement judiciaire", date: dayOf(on), complementJugement: `Jugement d'ouverture d'une procédure de redressement judiciaire, date de cessation des paiements le ${ceased}, désignant mandataire judiciaire ${who}.` }
  }
  return { famille: "Jugement d'ouverture", nature: "Jugement d'ouverture d'une procédure de sauvegarde", date: dayOf(on), complementJugement: `Jugement d'ouverture d'une procédure de sauvegarde, désignant mandataire judiciaire ${who}.` }
}

/** The judgment that follows the opening, and when (days after it), for the variants that have one. */
function follow(variant: Story['variant'], rng: Rng): { after: number; judgment: Omit<Judgment, 'date'> } | null {
  switch (variant) {
    case 'redressement-converted':
      return { after: rng.int(60, 150), judgment: { famille: 'Jugement prononçant', nature: 'Jugement de conversion en liquidation judiciaire', complementJugement: 'Jugement prononçant la conversion de la procédure de redressement judiciaire en liquidation judiciaire.' } }
    case 'redressement-plan':
      return { after: rng.int(120, 300), judgment: { famille: 'Jugement prononçant', nature: 'Jugement de plan de redressement', complementJugement: 'Jugement arrêtant le plan de redressement, prévoyant la continuation de l’activité, durée du plan 10 ans.' } }
    case 'sauvegarde-closed':
      return { after: rng.int(200, 400), judgment: { famille: 'Jugement de clôture', nature: 'Jugement de clôture de la procédure de sauvegarde', complementJugement: 'Jugement de clôture de la procédure de sauvegarde.' } }
    case 'liquidation-closed':
      return { after: rng.int(150, 400), judgment: { famille: 'Jugement de clôture', nature: "Jugement de clôture pour insuffisance d'actif", complementJugement: "Jugement prononçant la clôture de la procédure de liquidation judiciaire pour insuffisance d'actif." } }
    default:
      return null
  }
}

export function procedureSchedule(story: Story, start: number): ScheduledEvent[] {
  const rng = new Rng(hashString(`story|${story.slot}|${start}`))
  if (story.variant === 'radiation') {
    return [
      { index: 0, kind: 'closure', on: processingDay(start + rng.int(0, 5)), closedOn: start },
      { index: 1, kind: 'radiation', on: publicationDay(start + rng.int(30, 120)), closedOn: start },
    ]
  }
  const judged = courtDay(start)
  const published = publicationDay(judged + rng.int(7, 21))
  const events: ScheduledEvent[] = [{ index: 0, kind: 'annonce', on: published, judgment: opening(story.variant, judged, rng) }]
  const corrected = publicationDay(published + rng.int(7, 21))
  if (story.variant === 'liquidation-cancelled') {
    events.push({ index: 1, kind: 'annulation', on: corrected, judgment: events[0]!.judgment!, corrects: { index: 0, on: published } })
  } else if (rng.chance(RECTIFIED_SHARE)) {
    const judgment = events[0]!.judgment!
    events.push({ index: 1, kind: 'rectificatif', on: corrected, judgment: { ...judgment, complementJugement: `${judgment.complementJugement} Le présent avis annule et remplace l'avis précédent.` }, corrects: { index: 0, on: published } })
  }
  const next = follow(story.variant, rng)
  if (next) {
    const day = courtDay(judged + next.after)
    events.push({ index: 2, kind: 'annonce', on: publicationDay(day + rng.int(7, 21)), judgment: { ...next.judgment, date: dayOf(day) } })
    if (story.variant === 'liquidation-closed') events.push({ index: 3, kind: 'radiation', on: publicationDay(day + rng.int(20, 60)), closedOn: judged })
  }
  if (story.variant === 'liquidation-closed') events.push({ index: 4, kind: 'closure', on: processingDay(judged + rng.int(3, 20)), closedOn: judged })
  return events
}
