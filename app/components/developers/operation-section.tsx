import { useTranslation } from 'react-i18next'
import type { ReferenceOperation, ReferenceResponse } from '#app/domain/api-reference.ts'
import { cn } from '#app/utils/misc.ts'
import { CodeBlock } from './code-block.tsx'
import { FieldList } from './field-list.tsx'
import { InlineText, Paragraphs } from './inline-text.tsx'

const METHOD_CLASSES: Record<string, string> = {
  GET: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  POST: 'bg-brand-50 text-brand-700 ring-brand-200',
  DELETE: 'bg-red-50 text-red-800 ring-red-200',
}

export function MethodBadge({ method, className }: { method: string; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-md px-1.5 py-0.5 font-mono text-[0.6875rem] font-semibold tracking-wide ring-1 ring-inset',
        METHOD_CLASSES[method] ?? 'bg-slate-100 text-slate-700 ring-slate-200',
        className,
      )}
    >
      {method}
    </span>
  )
}

const subheading = 'text-sm font-semibold text-slate-900'

/** One operation: what it does, what it takes, a curl request and an example answer per documented status. */
export function OperationSection({ operation }: { operation: ReferenceOperation }) {
  const { t } = useTranslation()
  const title = `${operation.method} ${operation.path}`
  return (
    <section aria-labelledby={operation.anchor} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6" data-operation-id={operation.id}>
      <h3 id={operation.anchor} className="scroll-mt-24 text-lg font-semibold text-slate-900">
        {operation.summary}
      </h3>
      <p className="mt-2 flex min-w-0 flex-wrap items-center gap-2">
        <MethodBadge method={operation.method} />
        <code className="font-mono text-sm break-all text-slate-800" data-testid="operation-path">
          {operation.path}
        </code>
        {operation.deprecated ? <span className="rounded bg-amber-50 px-1.5 py-0.5 text-xs text-amber-800">{t('developers.operation.deprecated')}</span> : null}
      </p>
      <div className="mt-3 space-y-3">
        {operation.description ? <Paragraphs text={operation.description} /> : null}
        {!operation.requiresAuth ? <p className="text-sm text-slate-600">{t('developers.operation.noAuth')}</p> : null}
        {operation.idempotent && !operation.description?.includes('Idempotency-Key') ? <p className="text-sm text-slate-600">{t('developers.operation.idempotent')}</p> : null}
      </div>
      {operation.parameters.length ? (
        <div className="mt-6">
          <h4 className={subheading}>{t('developers.operation.parameters')}</h4>
          <div className="mt-2">
            <FieldList rows={operation.parameters} label={t('developers.operation.parametersOf', { operation: title })} />
          </div>
        </div>
      ) : null}
      {operation.body ? (
        <div className="mt-6">
          <h4 className={subheading}>
            {t('developers.operation.requestBody')} <span className="font-mono text-xs font-normal text-slate-500">{operation.body.contentType}</span>
          </h4>
          <div className="mt-2">
            {operation.body.fields.length ? (
              <FieldList rows={operation.body.fields} label={t('developers.operation.bodyOf', { operation: title })} />
            ) : (
              <p className="text-sm text-slate-600">{operation.body.type}</p>
            )}
          </div>
        </div>
      ) : null}
      <div className="mt-6">
        <h4 className={subheading}>{t('developers.operation.exampleRequest')}</h4>
        <CodeBlock className="mt-2" code={operation.curl} label={t('developers.operation.exampleRequestOf', { operation: title })} />
      </div>
      <div className="mt-6">
        <h4 className={subheading}>{t('developers.operation.responses')}</h4>
        <ul className="mt-2 space-y-3">
          {operation.responses.map((response) => (
            <ResponseItem key={response.status} response={response} title={title} />
          ))}
        </ul>
      </div>
    </section>
  )
}

function statusTone(status: string) {
  if (status.startsWith('2')) return 'bg-emerald-50 text-emerald-800 ring-emerald-200'
  if (status.startsWith('4')) return 'bg-amber-50 text-amber-800 ring-amber-200'
  return 'bg-slate-100 text-slate-700 ring-slate-200'
}

/**
 * A success shows its example answer; errors (most operations document eight or more, alike in shape) show their
 * status and meaning, their example behind a disclosure, so the answers that differ stay readable.
 */
function ResponseItem({ response, title }: { response: ReferenceResponse; title: string }) {
  const { t } = useTranslation()
  const success = !/^[45]/.test(response.status)
  const label = t('developers.operation.exampleAnswerOf', { status: response.status, operation: title })
  return (
    <li data-status={response.status}>
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm text-slate-700">
        <span className={cn('rounded-md px-1.5 py-0.5 font-mono text-xs font-semibold ring-1 ring-inset', statusTone(response.status))}>{response.status}</span>
        <span className="min-w-0">
          <InlineText text={response.description} />
        </span>
        {success && response.contentTypes.length ? <span className="font-mono text-xs break-all text-slate-500">{response.contentTypes.join(', ')}</span> : null}
      </p>
      {response.example && success ? <CodeBlock className="mt-2" code={response.example} label={label} /> : null}
      {response.example && !success ? (
        <details className="group mt-1.5">
          <summary className="w-fit cursor-pointer rounded text-xs font-medium text-brand-700 hover:text-brand-900">{t('developers.operation.showExample')}</summary>
          <CodeBlock className="mt-2" code={response.example} label={label} />
        </details>
      ) : null}
      {!response.example && success ? (
        <p className="mt-1 text-sm text-slate-500">{response.contentTypes.length ? t('developers.operation.fileBody') : t('developers.operation.noBody')}</p>
      ) : null}
    </li>
  )
}
