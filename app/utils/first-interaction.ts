/**
 * Calls `start` once, on the first focus or pointer press inside the element `within()` returns — at once when focus
 * is already there. Listens on the document, so an element rendered after the call counts too. Returns the cleanup.
 * What loads code on first use (the search combobox, a form's validation) shares this.
 */
export function onFirstInteraction(within: () => Element | null, start: () => void): () => void {
  const stop = () => {
    document.removeEventListener('focusin', onEvent)
    document.removeEventListener('pointerdown', onEvent)
  }
  const onEvent = (event: Event) => {
    if (!(event.target instanceof Node) || !within()?.contains(event.target)) return
    stop()
    start()
  }
  if (within()?.contains(document.activeElement)) {
    start()
    return () => {}
  }
  document.addEventListener('focusin', onEvent)
  document.addEventListener('pointerdown', onEvent)
  return stop
}
