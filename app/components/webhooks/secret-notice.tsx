import { useTranslation } from 'react-i18next'
import { ShownOnceSecret } from '#app/components/ui/shown-once-secret.tsx'

/** A signing secret, shown once (creation or rotation). */
export function SecretNotice({ title, secret }: { title: string; secret: string }) {
  const { t } = useTranslation()
  return <ShownOnceSecret id="webhook-secret" title={title} hint={t('webhooks.secretHint')} label={t('webhooks.secretLabel')} secret={secret} />
}
