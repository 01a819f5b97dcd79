// Like the export modal (search/lazy-export-modal.tsx): rendered in place on the server, fetched by the browser only
// when "Save this search" is first chosen, so the search page's first load does not carry it.
import { lazy, Suspense } from 'react'

const load = () => import('./save-search-modal.tsx')
type SaveSearchModalProps = React.ComponentProps<Awaited<ReturnType<typeof load>>['SaveSearchModal']>

const serverModule = import.meta.env.SSR ? await load() : null
const BrowserSaveSearchModal = lazy(() => load().then((module) => ({ default: module.SaveSearchModal })))

export function LazySaveSearchModal(props: SaveSearchModalProps) {
  const SaveSearchModal = serverModule?.SaveSearchModal ?? BrowserSaveSearchModal
  return (
    <Suspense fallback={null}>
      <SaveSearchModal {...props} />
    </Suspense>
  )
}
