import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { useHydrated } from '#app/utils/misc.ts'

/** A secret shown once (an API key, a webhook signing secret): selectable without JavaScript, with Copy when it runs. */
export function ShownOnceSecret({ id, title, hint, label, secret }: { id: string; title: string; hint: string; label: string; secret: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const [copied, setCopied] = useState(false)
  return (
    <Alert tone="success">
      <div className="space-y-3" data-testid={id}>
        <p className="font-semibold">{title}</p>
        <p>{hint}</p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <label htmlFor={id} className="sr-only">
            {label}
          </label>
          <input
            id={id}
            readOnly
            value={secret}
            onFocus={(event) => event.currentTarget.select()}
            className="block w-full min-w-0 rounded-lg border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 ring-1 ring-inset ring-emerald-300 focus:ring-2 focus:ring-brand-600 focus:outline-none"
          />
          {hydrated ? (
            <Button type="button" variant="secondary" className="shrink-0" onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true))}>
              {copied ? t('common.copied') : t('common.copy')}
            </Button>
          ) : null}
        </div>
      </div>
    </Alert>
  )
}
