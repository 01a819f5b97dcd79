import { useTranslation } from 'react-i18next'
import type { ApiReference } from '#app/domain/api-reference.ts'
import { GuideSections } from './guide-sections.tsx'
import { inlineCodeClasses, Paragraphs } from './inline-text.tsx'
import { OperationSection } from './operation-section.tsx'
import { ReferenceToc } from './reference-toc.tsx'

/**
 * Everything of /developers below its header: the table of contents and the reference. Rendered outside the router
 * (app/.server/api-reference-html.tsx caches its markup), so it uses no router hook and no <Link>.
 */
export function ReferenceBody({ reference }: { reference: ApiReference }) {
  const { t } = useTranslation()
  return (
    <>
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
                <code className={inlineCodeClasses} data-testid="base-url">
                  {reference.baseUrl}
                </code>
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
    </>
  )
}
