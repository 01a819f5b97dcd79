import { useTranslation } from 'react-i18next'
import { API_KEY_VARIABLE } from '#app/domain/api-reference.ts'
import { errorAnchor, type ProblemCodeInfo } from '#app/domain/api-reference-problems.ts'
import { CodeBlock } from './code-block.tsx'
import { InlineText, Paragraphs } from './inline-text.tsx'
import { GuideSection } from './guide-section.tsx'
import { WebhooksSection } from './webhooks-section.tsx'
import { ColumnHeads } from '#app/components/ui/column-heads.tsx'

/** The guide's sections, in the order of the table of contents (ids are their anchors). */
export const GUIDE_SECTIONS = [
  { id: 'authentication', titleKey: 'developers.auth.title' },
  { id: 'requests', titleKey: 'developers.requests.title' },
  { id: 'errors', titleKey: 'developers.errors.title' },
  { id: 'rate-limits', titleKey: 'developers.rateLimits.title' },
  { id: 'pagination', titleKey: 'developers.pagination.title' },
  { id: 'idempotency', titleKey: 'developers.idempotency.title' },
  { id: 'webhooks', titleKey: 'developers.webhooks.title' },
] as const

function AuthenticationSection({ baseUrl }: { baseUrl: string }) {
  const { t } = useTranslation()
  const example = `curl '${baseUrl}/me' \\\n  -H "Authorization: Bearer $${API_KEY_VARIABLE}"`
  return (
    <GuideSection id="authentication" title={t('developers.auth.title')}>
      <Paragraphs text={t('developers.auth.body')} />
      <p className="text-sm leading-6 text-slate-700">
        {t('developers.auth.keysAt')}{' '}
        <a href="/settings/api" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
          {t('developers.auth.keysLink')}
        </a>
      </p>
      <CodeBlock code={example} label={t('developers.auth.exampleLabel')} />
      <Paragraphs text={t('developers.auth.refusals', { variable: API_KEY_VARIABLE })} />
    </GuideSection>
  )
}

function ErrorsSection({ codes, origin }: { codes: ProblemCodeInfo[]; origin: string }) {
  const { t } = useTranslation()
  const example = JSON.stringify(
    {
      // As the API writes it (problem.ts): `type` links to the code's row below.
      type: `${origin}/developers#${errorAnchor('validation_failed')}`,
      title: 'Unprocessable Entity',
      status: 422,
      detail: t('developers.errors.exampleDetail'),
      code: 'validation_failed',
      errors: [{ path: 'body.criteria.country', message: t('developers.errors.exampleMessage') }],
    },
    null,
    2,
  )
  return (
    <GuideSection id="errors" title={t('developers.errors.title')}>
      <Paragraphs text={t('developers.errors.body')} />
      <CodeBlock code={example} label={t('developers.errors.exampleLabel')} />
      {/* Below 640 px each row stacks (code and status, then the meaning): three columns would break every code. */}
      <div className="rounded-xl bg-white ring-1 ring-slate-200">
        <table className="w-full text-left text-sm max-sm:block">
          <caption className="px-4 pt-3 text-left text-sm font-semibold text-slate-900 max-sm:block">{t('developers.errors.codesCaption')}</caption>
          <thead className="text-xs text-slate-500 max-sm:sr-only">
            <ColumnHeads className="px-4 py-2 font-medium" labels={[t('developers.errors.code'), t('developers.errors.status'), t('developers.errors.meaning')]} />
          </thead>
          <tbody className="divide-y divide-slate-100 max-sm:block">
            {codes.map(({ code, statuses, description }) => (
              // Problem answers link here: their `type` is <origin>/developers#error-<code>.
              <tr key={code} id={errorAnchor(code)} className="scroll-mt-24 target:bg-brand-50 max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-4 max-sm:py-2.5">
                <th scope="row" className="px-4 py-2 align-top font-normal max-sm:p-0">
                  <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] whitespace-nowrap text-slate-800">{code}</code>
                </th>
                <td className="px-4 py-2 align-top font-mono whitespace-nowrap text-slate-700 max-sm:p-0 max-sm:text-xs">{statuses.join(', ')}</td>
                <td className="px-4 py-2 align-top text-slate-700 max-sm:basis-full max-sm:p-0">
                  <InlineText text={t(`developers.errors.codes.${code}`, { defaultValue: description ?? '' })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </GuideSection>
  )
}

/** Authentication, requests, errors, rate limits, pagination, idempotency and webhooks: API.md's rules, for readers. */
export function GuideSections({ baseUrl, webhookPayload, errorCodes }: { baseUrl: string; webhookPayload: string; errorCodes: ProblemCodeInfo[] }) {
  const { t } = useTranslation()
  return (
    <>
      <AuthenticationSection baseUrl={baseUrl} />
      <GuideSection id="requests" title={t('developers.requests.title')}>
        <Paragraphs text={t('developers.requests.body')} />
      </GuideSection>
      <ErrorsSection codes={errorCodes} origin={new URL(baseUrl).origin} />
      <GuideSection id="rate-limits" title={t('developers.rateLimits.title')}>
        <Paragraphs text={t('developers.rateLimits.body')} />
        <CodeBlock code={'HTTP/1.1 429 Too Many Requests\nRetry-After: 12\nRateLimit-Limit: 60\nRateLimit-Remaining: 0\nRateLimit-Reset: 12'} label={t('developers.rateLimits.exampleLabel')} />
      </GuideSection>
      <GuideSection id="pagination" title={t('developers.pagination.title')}>
        <Paragraphs text={t('developers.pagination.body')} />
      </GuideSection>
      <GuideSection id="idempotency" title={t('developers.idempotency.title')}>
        <Paragraphs text={t('developers.idempotency.body')} />
      </GuideSection>
      <WebhooksSection payload={webhookPayload} />
    </>
  )
}
