import { useTranslation } from 'react-i18next'
import { ShownOnceSecret } from '#app/components/ui/shown-once-secret.tsx'

/** The new key, shown once. */
export function NewKeyNotice({ name, apiKey }: { name: string; apiKey: string }) {
  const { t } = useTranslation()
  return <ShownOnceSecret id="new-api-key" title={t('apiSettings.createdTitle', { name })} hint={t('apiSettings.createdHint')} label={t('apiSettings.keyLabel')} secret={apiKey} />
}
