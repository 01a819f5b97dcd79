import { useTranslation } from 'react-i18next'
import type { Route } from './+types/developers'
import { apiReferenceFor } from '#app/.server/api-reference.ts'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { getOptionalUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { DevelopersHeader } from '#app/components/developers/developers-header.tsx'
import { GuideSections } from '#app/components/developers/guide-sections.tsx'
import { inlineCodeClasses, Paragraphs } from '#app/components/developers/inline-text.tsx'
import { OperationSection } from '#app/components/developers/operation-section.tsx'
import { ReferenceToc } from '#app/components/developers/reference-toc.tsx'
import type { DocumentHandle } from '#app/utils/document-handle.ts'

// Pure server-rendered HTML: the reference needs no script, so the page ships none (root.tsx reads this).
export const handle: DocumentHandle = { scripts: false }

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(context)
  return { reference: apiReferenceFor(openApiDocument(), getInstance(context), request), signedIn: user !== null }
}

export default function DevelopersRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const { reference, signedIn } = loaderData
  return (
    <div className="min-h-full">
      <title>{`${t('developers.title')} · LeadAtlas`}</title>
      <meta name="description" content={t('developers.metaDescription')} />
      <a href="#main" className="sr-only z-50 rounded-lg bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-3 focus:left-3">
        {t('app.skipToContent')}
      </a>
      <DevelopersHeader signedIn={signedIn} />
      <div className="mx-auto max-w-7xl gap-10 px-4 py-6 sm:px-6 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:px-8 lg:py-10">
        <div className="lg:order-none">
          <ReferenceToc groups={reference.groups} />
        </div>
        <main id="main" className="mt-6 min-w-0 space-y-12 lg:mt-0">
          <div className="space-y-3">
            <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t('developers.title')}</h1>
            <Paragraphs text={t('developers.intro')} className="max-w-3xl text-base" />
            <dl className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
              <div className="min-w-0">
                <dt className="text-slate-500">{t('developers.baseUrl')}</dt>
                <dd>
                  <code className={inlineCodeClasses} data-testid="base-url">{reference.baseUrl}</code>
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">{t('developers.version')}</dt>
                <dd className="text-slate-900">{reference.version}</dd>
              </div>
              <div>
                <dt className="text-slate-500">{t('developers.openapi')}</dt>
                <dd>
                  <a href={`${new URL(reference.baseUrl).pathname}/openapi.json`} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
                    openapi.json
                  </a>
                </dd>
              </div>
            </dl>
          </div>
          <GuideSections baseUrl={reference.baseUrl} webhookPayload={reference.webhookPayload} errorCodes={reference.errorCodes} />
          {reference.groups.map((group) => (
            <section key={group.anchor} aria-labelledby={group.anchor} className="space-y-6">
              <div>
                <h2 id={group.anchor} className="scroll-mt-24 text-xl font-semibold text-slate-900">
                  {group.tag}
                </h2>
                {group.description ? <Paragraphs text={group.description} className="mt-2" /> : null}
              </div>
              {group.operations.map((operation) => (
                <OperationSection key={operation.anchor} operation={operation} />
              ))}
            </section>
          ))}
        </main>
      </div>
    </div>
  )
}
