import { useTranslation } from 'react-i18next'
import type { Route } from './+types/developers'
import { referenceHtmlFor } from '#app/.server/api-reference-html.tsx'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { getOptionalUser } from '#app/.server/auth.ts'
import { safeI18n } from '#app/.server/i18n.ts'
import { DevelopersHeader } from '#app/components/developers/developers-header.tsx'
import type { DocumentHandle } from '#app/utils/document-handle.ts'
import { setServerMarkup, useServerMarkup } from '#app/utils/server-markup.tsx'

// Pure server-rendered HTML: the reference needs no script, so the page ships none (root.tsx reads this). Links to it
// reload the document: the browser's messages leave the page's texts out (vite.config.ts).
export const handle: DocumentHandle = { scripts: false }

const REFERENCE_MARKUP = 'developers-reference'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(context)
  // The reference's markup (≈ 0.8 MB) goes to the render beside the loader data, not in it: see server-markup.tsx.
  setServerMarkup(context, REFERENCE_MARKUP, referenceHtmlFor(openApiDocument(), safeI18n(context), request))
  return { signedIn: user !== null }
}

export default function DevelopersRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const { signedIn } = loaderData
  const referenceHtml = useServerMarkup(REFERENCE_MARKUP) ?? ''
  return (
    <div className="min-h-full">
      <title>{`${t('developers.title')} · LeadAtlas`}</title>
      <meta name="description" content={t('developers.metaDescription')} />
      <a href="#main" className="sr-only z-50 rounded-lg bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-3 focus:left-3">
        {t('app.skipToContent')}
      </a>
      <DevelopersHeader signedIn={signedIn} />
      {/* The table of contents and the reference, rendered once per language (app/.server/api-reference-html.tsx). */}
      <div
        className="mx-auto max-w-7xl gap-10 px-4 py-6 sm:px-6 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:px-8 lg:py-10"
        dangerouslySetInnerHTML={{ __html: referenceHtml }}
      />
    </div>
  )
}
