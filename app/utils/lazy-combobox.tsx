// Headless UI's Combobox brings floating-ui, @tanstack/virtual-core and react-aria with it: about
// 130 KB (38 KB brotli) of the search route's chunk, none of which the first paint or hydration
// needs, since the search form first renders its no-JavaScript pickers (server-rendered selects,
// a fully working GET form). So the combobox is its own chunk, fetched when the form is first
// touched (focus or pointer press inside it, or focus already there when the page hydrates): a
// visitor who only reads the results never downloads it. Until it has arrived (and for good if it
// never does) the form keeps its no-JavaScript pickers, and what is typed into them is carried over.
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { LevelsWithData, SearchCriteria } from '#app/domain/search.ts'
import type * as PickerModule from '#app/components/search/picker-combobox.tsx'
import { onFirstInteraction } from './first-interaction.ts'

type PickerComboboxModule = typeof PickerModule

let loaded: PickerComboboxModule | null = null
let loading: Promise<PickerComboboxModule> | null = null

function loadPickerCombobox() {
  return (loading ??= import('#app/components/search/picker-combobox.tsx').then((module) => (loaded = module)))
}

/**
 * True once the page is hydrated and the combobox chunk is loaded: the hook starts loading it on
 * the first interaction with `formRef`'s form. The field that had focus in the no-JavaScript form
 * gets it back in the combobox (same id). `beforeSwap` runs just before the no-JavaScript pickers
 * are replaced, while they still hold what the user typed into them (state set there lands in the
 * same render as the swap).
 */
export function useComboboxReady(formRef: React.RefObject<HTMLFormElement | null>, beforeSwap?: () => void): boolean {
  const [ready, setReady] = useState(false)
  const focusedId = useRef<string | null>(null)
  const beforeSwapRef = useRef(beforeSwap)
  beforeSwapRef.current = beforeSwap
  useEffect(() => {
    let active = true
    const done = () => {
      if (!active) return
      focusedId.current = document.activeElement?.id || null
      beforeSwapRef.current?.()
      setReady(true)
    }
    const start = () => {
      if (loaded) done()
      else loadPickerCombobox().then(done, () => {}) // failed: the no-JavaScript pickers keep working
    }
    // Already loaded (another visit of the page), or no form to wait for: swap now.
    if (loaded || !formRef.current) {
      start()
      return () => {
        active = false
      }
    }
    const stopListening = onFirstInteraction(() => formRef.current, start)
    return () => {
      active = false
      stopListening()
    }
  }, [formRef])
  useLayoutEffect(() => {
    if (ready && focusedId.current) document.getElementById(focusedId.current)?.focus()
  }, [ready])
  return ready
}

function loadedModule(): PickerComboboxModule {
  if (!loaded) throw new Error('A combobox picker rendered before useComboboxReady() was true')
  return loaded
}

/** The search picker combobox; render it (and the two below) only once useComboboxReady() is true. */
export function PickerCombobox(props: React.ComponentProps<PickerComboboxModule['PickerCombobox']>) {
  const Picker = loadedModule().PickerCombobox
  return <Picker {...props} />
}

export function CategoryPicker(props: React.ComponentProps<PickerComboboxModule['CategoryPicker']>) {
  const Picker = loadedModule().CategoryPicker
  return <Picker {...props} />
}

export function LocationPicker(props: React.ComponentProps<PickerComboboxModule['LocationPicker']>) {
  const Picker = loadedModule().LocationPicker
  return <Picker {...props} />
}

/**
 * Which levels have data for the chosen country and region, as far as the combobox pickers have loaded them (their
 * lists live in their chunk): nothing known before it has arrived, the server judges then.
 */
export function knownLocationLevels(criteria: SearchCriteria, lang: string): LevelsWithData {
  return loaded ? loaded.knownLocationLevels(criteria, lang) : {}
}

const subscribeNowhere = () => () => {}

/** knownLocationLevels, kept current as the pickers' lists load; `ready` is useComboboxReady()'s answer. */
export function useKnownLocationLevels(criteria: SearchCriteria, lang: string, ready: boolean): LevelsWithData {
  const module = ready ? loaded : null
  useSyncExternalStore(module?.subscribeLocations ?? subscribeNowhere, module?.locationsVersion ?? zero, zero)
  return knownLocationLevels(criteria, lang)
}

function zero() {
  return 0
}
