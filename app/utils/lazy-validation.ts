// zod and conform's zod adapter weigh ~35 KB (brotli) — more than the rest of the search page's own
// code — and a form needs them only once someone fills it in. So a form's schema (the one its action
// parses on the server, app/domain/export-commands.ts) is fetched on the first focus or pointer press
// inside the form. Until it has arrived the form posts as it does without JavaScript and the server
// answers with the same messages; conform re-checks on input only once it can do so in the browser
// (otherwise every keystroke after an error would post the form).
import type { Submission } from '@conform-to/react'
import { useEffect, useRef, useState } from 'react'
import { onFirstInteraction } from './first-interaction.ts'
import type { $ZodType, input, output } from 'zod/v4/core'

type Timing = 'onSubmit' | 'onBlur' | 'onInput'

export interface LazyValidation<Schema extends $ZodType> {
  onValidate: ((context: { formData: FormData }) => Submission<input<Schema>, string[], output<Schema>>) | undefined
  shouldValidate: Timing
  shouldRevalidate: Timing
}

/**
 * conform's validation options for the form `formId`, with `loadSchema` (a dynamic import of the
 * schema's module) run on the first interaction with the form, or at once when it already has focus.
 */
export function useLazyValidation<Schema extends $ZodType>(
  formId: string,
  loadSchema: () => Promise<Schema>,
  timing: { shouldValidate: Timing; shouldRevalidate: Timing },
): LazyValidation<Schema> {
  const [validate, setValidate] = useState<LazyValidation<Schema>['onValidate']>(undefined)
  const load = useRef(loadSchema)
  load.current = loadSchema
  useEffect(() => {
    let active = true
    const start = () => {
      Promise.all([import('@conform-to/zod/v4'), load.current()]).then(
        ([{ parseWithZod }, schema]) => {
          if (active) setValidate(() => ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema }))
        },
        () => {}, // not fetched (offline): the server still validates every post
      )
    }
    const stopListening = onFirstInteraction(() => document.getElementById(formId), start)
    return () => {
      active = false
      stopListening()
    }
  }, [formId])
  if (!validate) return { onValidate: undefined, shouldValidate: 'onSubmit', shouldRevalidate: 'onSubmit' }
  return { onValidate: validate, ...timing }
}
