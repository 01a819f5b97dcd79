import { useTranslation } from 'react-i18next'
import { CodeBlock } from './code-block.tsx'
import { GuideSection } from './guide-section.tsx'
import { Paragraphs, inlineCodeClasses } from './inline-text.tsx'

/** API.md's events; each key under developers.webhooks.events is the name with `_` for `.`. */
const EVENTS = ['export.completed', 'export.failed', 'export.interrupted', 'saved_search.run_completed', 'test'] as const

function verifySnippet(t: (key: string) => string) {
  return [
    `import express from 'express'`,
    `import { Webhook } from 'standardwebhooks'`,
    ``,
    `const webhook = new Webhook(process.env.LEADATLAS_WEBHOOK_SECRET) // whsec_…`,
    `const app = express()`,
    ``,
    `// ${t('developers.webhooks.snippet.rawBody')}`,
    `app.post('/leadatlas/webhooks', express.raw({ type: 'application/json' }), (req, res) => {`,
    `  let event`,
    `  try {`,
    `    // ${t('developers.webhooks.snippet.verify')}`,
    `    event = webhook.verify(req.body, req.headers)`,
    `  } catch {`,
    `    return res.sendStatus(400)`,
    `  }`,
    `  // ${t('developers.webhooks.snippet.handle')}`,
    `  res.sendStatus(204)`,
    `})`,
  ].join('\n')
}

export function WebhooksSection({ payload }: { payload: string }) {
  const { t } = useTranslation()
  return (
    <GuideSection id="webhooks" title={t('developers.webhooks.title')}>
      <Paragraphs text={t('developers.webhooks.intro')} />
      <h3 className="pt-2 text-base font-semibold text-slate-900">{t('developers.webhooks.eventsTitle')}</h3>
      <ul className="space-y-2 text-sm leading-6 text-slate-700">
        {EVENTS.map((event) => (
          <li key={event}>
            <code className={inlineCodeClasses}>{event}</code> — {t(`developers.webhooks.events.${event.replaceAll('.', '_')}`)}
          </li>
        ))}
      </ul>
      <CodeBlock code={payload} label={t('developers.webhooks.payloadLabel')} />
      <h3 className="pt-2 text-base font-semibold text-slate-900">{t('developers.webhooks.verifyTitle')}</h3>
      <Paragraphs text={t('developers.webhooks.verifyBody')} />
      <CodeBlock code={verifySnippet(t)} label={t('developers.webhooks.verifyLabel')} />
      <h3 className="pt-2 text-base font-semibold text-slate-900">{t('developers.webhooks.retriesTitle')}</h3>
      <Paragraphs text={t('developers.webhooks.retriesBody')} />
    </GuideSection>
  )
}
