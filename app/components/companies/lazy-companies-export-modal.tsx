// As the search page's export modal (search/lazy-export-modal.tsx): conform and the modal are only needed once
// "Export these companies" is chosen. The server has the module loaded before any render (so the page works without
// JavaScript); the browser fetches it when the modal is first shown.
import { lazy, Suspense } from 'react'

const load = () => import('./companies-export-modal.tsx')
type Props = React.ComponentProps<Awaited<ReturnType<typeof load>>['CompaniesExportModal']>

const serverModule = import.meta.env.SSR ? await load() : null
const BrowserModal = lazy(() => load().then((module) => ({ default: module.CompaniesExportModal })))

export function LazyCompaniesExportModal(props: Props) {
  const Modal = serverModule?.CompaniesExportModal ?? BrowserModal
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  )
}
