import { isRouteErrorResponse, Link } from 'react-router'
import { buttonClasses } from './ui/button.tsx'

interface CardTexts {
  title: string
  body?: string
}

/**
 * A page's own error card (the layout stays around it): what went wrong, and the way back to its list. A 404 gets
 * the `notFound` texts when the page has them.
 */
export function RouteErrorCard({ error, backTo, backLabel, notFound, ...failed }: CardTexts & { error: unknown; notFound?: CardTexts; backTo: string; backLabel: string }) {
  // Answers the loader chose (404, 400…) are expected; anything else is a bug worth seeing in the console.
  if (!isRouteErrorResponse(error)) console.error(error)
  const { title, body } = notFound && isRouteErrorResponse(error) && error.status === 404 ? notFound : failed
  return (
    <section className="mx-auto max-w-xl">
      <div className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200" role="alert">
        <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
        {body ? <p className="mt-1 text-sm text-slate-600">{body}</p> : null}
        <Link to={backTo} className={buttonClasses({ className: 'mt-6' })}>
          {backLabel}
        </Link>
      </div>
    </section>
  )
}
