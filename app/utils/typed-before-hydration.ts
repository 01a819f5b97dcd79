import { useLayoutEffect, useRef } from 'react'

/** Fields the user changed, by name: every value the form would submit for that name. */
export type TypedValues = Map<string, string[]>

/**
 * What the user changed in a server-rendered form: fields whose live value differs from the
 * value the HTML came with. Right after hydration that is exactly what was typed while the
 * scripts were still on their way; on a form React just mounted it is nothing.
 */
export function changedFields(form: HTMLFormElement): TypedValues {
  const names = new Set<string>()
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLInputElement) {
      if (!element.name || element.type === 'hidden' || element.type === 'password') continue
      const changed = element.type === 'checkbox' || element.type === 'radio' ? element.checked !== element.defaultChecked : element.value !== element.defaultValue
      if (changed) names.add(element.name)
    } else if (element instanceof HTMLSelectElement) {
      // Without a `selected` attribute the browser shows the first option: that is the default too.
      const initial = Array.from(element.options).find((option) => option.defaultSelected) ?? element.options[0]
      if (element.name && element.value !== (initial?.value ?? '')) names.add(element.name)
    } else if (element instanceof HTMLTextAreaElement) {
      if (element.name && element.value !== element.defaultValue) names.add(element.name)
    }
  }
  const data = new FormData(form)
  return new Map(Array.from(names, (name) => [name, data.getAll(name).map(String)]))
}

/**
 * Keeps what was typed into a server-rendered form before React took it over. React leaves the
 * DOM value of uncontrolled inputs alone when it hydrates, but state initialised from server data
 * (controlled checkboxes, comboboxes replacing no-JS selects) would render the server's value over
 * the user's. Once, as the form mounts and before anything re-renders it, `restore` gets the
 * changed fields to put into that state. Conform's uncontrolled forms do not need it.
 */
export function useTypedBeforeHydration(restore: (typed: TypedValues) => void) {
  const formRef = useRef<HTMLFormElement>(null)
  const restoreRef = useRef(restore)
  restoreRef.current = restore
  // A layout effect: it runs before the passive ones (useHydrated's re-render among them), while
  // the DOM still holds what the user typed.
  useLayoutEffect(() => {
    const form = formRef.current
    if (!form) return
    const typed = changedFields(form)
    if (typed.size) restoreRef.current(typed)
  }, [])
  return formRef
}
