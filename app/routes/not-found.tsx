import { data } from 'react-router'
import { ErrorState } from '#app/components/error-state.tsx'

// A catch-all route so unknown URLs get a translated 404 page instead of the router default.
export function loader() {
  return data(null, { status: 404 })
}

export function action() {
  return data(null, { status: 404 })
}

export default function NotFound() {
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <ErrorState status={404} />
    </main>
  )
}
