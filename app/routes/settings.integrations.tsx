import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData } from 'react-router'
import type { Route } from './+types/settings.integrations'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { CONNECTION_FAILURE_STATUS, runConnectionCommand } from '#app/.server/integrations/connection-commands.ts'
import { listCrmConnections } from '#app/.server/integrations/connections.ts'
import { integrationsKeyConfigured } from '#app/.server/integrations/secrets.ts'
import { oauthProviders } from '#app/.server/integrations/oauth-apps.ts'
import { OAuthConnectForm } from '#app/components/integrations/oauth-connect-form.tsx'
import { refusalAnswer } from '#app/.server/rate-limit.ts'
import { ConnectForm } from '#app/components/integrations/connect-form.tsx'
import { ConnectionList, INTEGRATIONS_PATH } from '#app/components/integrations/connection-list.tsx'
import { MappingForm } from '#app/components/integrations/mapping-form.tsx'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { CRM_PROVIDER_NAMES, CrmConnectionCommandSchema, MAX_CRM_CONNECTIONS, type CrmConnectionView } from '#app/domain/crm.ts'
import { can } from '#app/domain/workspace-roles.ts'
import { pageTexts } from '#app/i18n.ts'

await pageTexts('integrations')

export const handle: AppHandle = { titleKey: 'pages.integrations' }

/** What the OAuth callback may send back (anything else in the link is ignored). */
const FAILURES = ['oauth_state', 'oauth_denied', 'oauth_refused', 'unavailable', 'too_many', 'key_missing', 'refused', 'rate_limited', 'invalid_secret'] as const

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const connections = await listCrmConnections(user)
  const byId = (id: string | null) => connections.find((connection) => connection.id === id) ?? null
  return {
    connections,
    admin: can(user.workspace.role, 'integrations'),
    keyConfigured: integrationsKeyConfigured(),
    mapping: byId(url.searchParams.get('mapping')),
    disconnect: byId(url.searchParams.get('disconnect')),
    done: url.searchParams.get('done'),
    failed: FAILURES.find((code) => code === url.searchParams.get('failed')) ?? null,
    oauth: oauthProviders(),
    account: url.searchParams.get('account'),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: CrmConnectionCommandSchema })
  // The credential is never sent back into the page; what else was typed is.
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['secret'] }), intent: String(formData.get('intent') ?? '') }, { status: 400 })
  const command = submission.value
  const result = await runConnectionCommand(user, command, { origin: new URL(request.url).origin })
  if (!result.ok) {
    if (result.code === 'rate_limited' && result.refusal) {
      const { status, message, headers } = refusalAnswer(context, result.refusal)
      return data({ result: submission.reply({ formErrors: [message], hideFields: ['secret'] }), intent: command.intent }, { status, headers })
    }
    const message = t(`integrations.errors.${result.code}`, { reason: result.reason ?? '', max: MAX_CRM_CONNECTIONS })
    return data({ result: submission.reply({ formErrors: [message], hideFields: ['secret'] }), intent: command.intent }, { status: CONNECTION_FAILURE_STATUS[result.code] })
  }
  if (result.redirect) throw redirect(result.redirect.to, { headers: { 'Set-Cookie': result.redirect.cookie } })
  const account = result.account ? `&account=${encodeURIComponent(result.account.slice(0, 100))}` : ''
  throw redirect(`${INTEGRATIONS_PATH}?done=${result.done}${account}`)
}

export default function IntegrationsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const { connections, admin, keyConfigured, mapping, disconnect, done, account, failed, oauth } = loaderData
  const actionData = useActionData<typeof action>()
  // A button's form (test, mapping, disconnect) shows its refusal here; a tampered field is named as a bad request.
  const errors = actionData && actionData.intent !== 'connect' ? actionData.result.error : undefined
  const failure = errors?.['']?.length ? errors[''] : errors && Object.keys(errors).length ? [t('integrations.errors.invalidRequest')] : undefined
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <BackLink to="/settings">{t('common.backToSettings')}</BackLink>
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('integrations.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('integrations.subtitle')}</p>
      </div>
      {done && !actionData ? <Alert tone="success">{t(`integrations.done.${done}`, { account: account ?? '', defaultValue: t('integrations.done.saved') })}</Alert> : null}
      {failure?.length ? <Alert tone="error">{failure.join(' ')}</Alert> : null}
      {failed && !actionData ? <Alert tone="error">{t(`integrations.errors.${failed}`, { reason: '', max: MAX_CRM_CONNECTIONS })}</Alert> : null}
      {admin && !keyConfigured ? <Alert tone="warning" title={t('integrations.keyMissingTitle')}>{t('integrations.keyMissing')}</Alert> : null}
      {!admin ? <Alert tone="info">{t('integrations.adminsOnly')}</Alert> : null}
      {disconnect && admin ? <ConfirmDisconnect connection={disconnect} /> : null}
      <ConnectionList connections={connections} admin={admin} />
      {mapping && admin ? <MappingForm key={mapping.id} connection={mapping} /> : null}
      {/* Keyed by the count: a connection made (or removed) starts the form afresh, with nothing typed left in it. */}
      {admin && oauth.length ? <OAuthConnectForm providers={oauth} lastResult={actionData?.intent === 'oauth' ? actionData.result : undefined} disabled={!keyConfigured || connections.length >= MAX_CRM_CONNECTIONS} /> : null}
      {admin ? <ConnectForm key={connections.length} lastResult={actionData?.intent === 'connect' ? actionData.result : undefined} disabled={!keyConfigured || connections.length >= MAX_CRM_CONNECTIONS} /> : null}
    </section>
  )
}

function ConfirmDisconnect({ connection }: { connection: CrmConnectionView }) {
  const { t } = useTranslation()
  const name = `${CRM_PROVIDER_NAMES[connection.provider]} · ${connection.label}`
  return (
    <div role="alertdialog" aria-labelledby="confirm-disconnect-title" className="space-y-4 rounded-2xl bg-amber-50 p-6 ring-1 ring-amber-200 sm:p-8">
      <h2 id="confirm-disconnect-title" className="text-lg font-semibold text-slate-900">
        {t('integrations.confirmTitle', { name })}
      </h2>
      <p className="text-sm text-slate-700">{t('integrations.confirmBody')}</p>
      <Form method="post" action={INTEGRATIONS_PATH} className="flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="disconnect" />
        <input type="hidden" name="connectionId" value={connection.id} />
        <Button type="submit" variant="danger" autoFocus>
          {t('integrations.confirmButton')}
        </Button>
        <Link to={INTEGRATIONS_PATH} className={buttonClasses({ variant: 'secondary' })}>
          {t('common.cancel')}
        </Link>
      </Form>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  return <RouteErrorCard error={error} title={t('integrations.loadFailed')} body={t('errorPage.body')} backTo="/settings" backLabel={t('common.backToSettings')} />
}
