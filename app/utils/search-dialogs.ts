/**
 * The search page's dialogs, opened by URL over the search they act on (`?…&export=1`, `?…&save=1`): one rule for
 * the links that open them and for telling a dialog opening or closing from a new search.
 */
const SEARCH_DIALOGS = ['export', 'save'] as const

/** The search's own parameters: the page's query without its dialogs. */
function searchOnly(search: string): string {
  const params = new URLSearchParams(search)
  for (const dialog of SEARCH_DIALOGS) params.delete(dialog)
  params.sort()
  return params.toString()
}

/**
 * The link that opens `dialog` over the search shown. The same whether a dialog is open or not (the parameter is
 * never doubled), so the dialog finds it again to give it focus back when it closes.
 */
export function searchDialogHref(pageSearch: string, dialog: (typeof SEARCH_DIALOGS)[number]): string {
  const params = new URLSearchParams(pageSearch)
  for (const other of SEARCH_DIALOGS) params.delete(other)
  params.set(dialog, '1')
  return `/?${params}`
}

/** A navigation that only opens or closes a dialog over the same search: not a new search (no skeleton, no spinner). */
export function onlyDialogChanges(fromSearch: string, toSearch: string): boolean {
  return fromSearch !== toSearch && searchOnly(fromSearch) === searchOnly(toSearch)
}
