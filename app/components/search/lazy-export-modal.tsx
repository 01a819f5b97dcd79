// The export modal (and conform, its form library) is only needed once "Enrich and export" is
// chosen: ~12 KB (brotli) that the search page's first load no longer carries. The server has it
// loaded before any render (so it renders in place and the page works without JavaScript); the
// browser fetches it when it is first shown and hydrates it once it has arrived.
import { lazy, Suspense } from 'react'

const load = () => import('#app/components/exports/export-modal.tsx')
type ExportModalProps = React.ComponentProps<Awaited<ReturnType<typeof load>>['SearchExportModal']>

// A static import would keep the module in the browser's first chunks; a top-level await on the
// server only (the bundler drops the branch from the browser build) leaves nothing to suspend on.
const serverModule = import.meta.env.SSR ? await load() : null
const BrowserExportModal = lazy(() => load().then((module) => ({ default: module.SearchExportModal })))

export function LazyExportModal(props: ExportModalProps) {
  const ExportModal = serverModule?.SearchExportModal ?? BrowserExportModal
  return (
    <Suspense fallback={null}>
      <ExportModal {...props} />
    </Suspense>
  )
}
