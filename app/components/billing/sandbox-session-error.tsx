import { useTranslation } from 'react-i18next'
import { SandboxFrame, SandboxMessage } from './sandbox-frame.tsx'

/** What every sandbox page shows when its `?session=` token is bad or belongs to another user. */
export function SandboxSessionError({ title, reason }: { title: string; reason: 'invalid' | 'forbidden' }) {
  const { t } = useTranslation()
  return (
    <SandboxFrame title={title}>
      <SandboxMessage title={title} message={reason === 'forbidden' ? t('billing.sandbox.forbiddenSession') : t('billing.sandbox.invalidSession')} />
    </SandboxFrame>
  )
}
