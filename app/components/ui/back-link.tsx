import { Link } from 'react-router'

/** "← Back to …" above a page's title: the way up to the page it belongs to. */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900">
      <span aria-hidden="true">←</span> {children}
    </Link>
  )
}
