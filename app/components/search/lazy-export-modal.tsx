// The export modal (and conform, its form library) is only needed once "Enrich and export" is
// chosen: ~12 KB (brotli) that the search page's first load no longer carries. The server renders it
// in place (a static import, dropped from the browser's bundle), so the page works without
// JavaScript; the browser fetches it when it is first shown and hydrates it once it has arrived.
import { lazy, Suspense } from 'react'
import { ExportModal as ServerExportModal } from '#app/components/exports/export-modal.tsx'

const ExportModal = import.meta.env.SSR
  ? ServerExportModal
  : lazy(() => import('#app/components/exports/export-modal.tsx').then((module) => ({ default: module.ExportModal })))

export function LazyExportModal(props: React.ComponentProps<typeof ServerExportModal>) {
  return (
    <Suspense fallback={null}>
      <ExportModal {...props} />
    </Suspense>
  )
}
