import { Link } from 'react-router'

/** A way from one page to a related one (Settings → do-not-contact list, API and webhooks): a title and what is there. */
export function LinkCard({ to, title, hint }: { to: string; title: string; hint: string }) {
  return (
    <Link
      to={to}
      className="mt-6 flex items-center justify-between gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 hover:ring-brand-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:px-8"
    >
      <span>
        <span className="block text-base font-semibold text-slate-900">{title}</span>
        <span className="mt-1 block text-sm text-slate-600">{hint}</span>
      </span>
      <span aria-hidden="true" className="text-xl text-slate-400">
        →
      </span>
    </Link>
  )
}
