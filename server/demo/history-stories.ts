/**
 * Which companies of the history's slots (history-slots.ts) go through a collective procedure or close, and how:
 * drawn once per slot, so the demo registry (registry-universe.ts) can tell a company the history closes without
 * naming anyone, and the history can list a day's events by cycle phase.
 */
import { hashString, Rng } from '#app/.server/sources/demo/prng.ts'
import { HISTORY_CYCLE_DAYS, historyPairs, historySectors, isCreatedSlot, placeSeed, slotOf, unknownSeed } from './history-slots.ts'

/** Companies with a collective procedure in each cycle (open at any day for about 3 in 4 of them). */
const STORY_SHARE = 0.032
/** Companies that close and are radiated in each cycle without a procedure. */
const RADIATION_SHARE = 0.009

/**
 * The procedure's course. Open: liquidation, redressement, sauvegarde. Ending: a redressement converted into a
 * liquidation or closed by a continuation plan, a sauvegarde closed, a liquidation closed for want of assets (the
 * company is then radiated), a liquidation announcement cancelled. `radiation`: closed and radiated, no procedure.
 */
type StoryVariant =
  | 'liquidation'
  | 'redressement'
  | 'redressement-converted'
  | 'redressement-plan'
  | 'sauvegarde'
  | 'sauvegarde-closed'
  | 'liquidation-closed'
  | 'liquidation-cancelled'
  | 'radiation'

const PROCEDURES: readonly (readonly [StoryVariant, number])[] = [
  ['liquidation', 36],
  ['redressement', 10],
  ['redressement-converted', 12],
  ['redressement-plan', 12],
  ['sauvegarde', 7],
  ['sauvegarde-closed', 5],
  ['liquidation-closed', 10],
  ['liquidation-cancelled', 1],
]

/** Variants after which the company is closed (cessée) on Sirene and in the registry. */
const CLOSING: ReadonlySet<StoryVariant> = new Set(['liquidation-closed', 'radiation'])

export interface Story {
  slot: number
  variant: StoryVariant
}

interface StoryIndex {
  byPhase: Story[][]
  /** Company seeds (the registry's makeCompany seed for registry-only ones, the source seed for map ones). */
  closedSeeds: Set<number>
}

let index: StoryIndex | null = null

function storyIndex(): StoryIndex {
  if (index) return index
  const byPhase = Array.from({ length: HISTORY_CYCLE_DAYS }, () => [] as Story[])
  const closedSeeds = new Set<number>()
  for (const pair of historyPairs()) {
    const key = (historySectors()[pair.sector] as { sector: { key: string } }).sector.key
    const rng = new Rng(hashString(`stories|${pair.department}|${key}`))
    for (let id = pair.first; id < pair.first + pair.size; id++) {
      const roll = rng.next()
      const phase = rng.int(0, HISTORY_CYCLE_DAYS - 1)
      const variantRoll = rng.next()
      if (roll >= STORY_SHARE + RADIATION_SHARE) continue
      const slot = slotOf(id)
      // A business the history has just created has no other story.
      if (isCreatedSlot(slot)) continue
      const variant = roll < STORY_SHARE ? pickWeighted(PROCEDURES, variantRoll) : 'radiation'
      ;(byPhase[phase] as Story[]).push({ slot: id, variant })
      if (CLOSING.has(variant)) closedSeeds.add(slot.kind === 'known' ? placeSeed(slot.commune.code, key, slot.rank) : unknownSeed(slot.commune.code, key, slot.rank))
    }
  }
  index = { byPhase, closedSeeds }
  return index
}

function pickWeighted<T>(items: readonly (readonly [T, number])[], roll: number): T {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0)
  let left = roll * total
  for (const [item, weight] of items) {
    left -= weight
    if (left < 0) return item
  }
  return (items[items.length - 1] as readonly [T, number])[0]
}

/** The stories whose cycle starts on this phase (0..HISTORY_CYCLE_DAYS-1), in slot order. */
export function storiesOfPhase(phase: number): readonly Story[] {
  return storyIndex().byPhase[phase] as Story[]
}

/**
 * Whether the history closes the company with this seed (a map business's source seed, a registry-only company's
 * seed): the demo registry then shows it closed (C / F), as Sirene would after the closure the flux carries.
 */
export function demoClosedByHistory(seed: number): boolean {
  return storyIndex().closedSeeds.has(seed)
}
