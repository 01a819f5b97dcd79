import { parse, type Submission } from '@conform-to/react'
import { fieldErrors, type FieldCheck } from '#app/domain/auth-fields.ts'

/**
 * conform's `onValidate` for a form the browser checks with plain field rules (app/domain/auth-fields.ts) instead of
 * the zod schema its action parses with: the signed-out pages then need no zod at all.
 */
export function validateFields<Checks extends Record<string, FieldCheck>>(checks: Checks) {
  type Values = { [Name in keyof Checks]?: string }
  return ({ formData }: { formData: FormData }): Submission<Values, string[]> =>
    parse<Values, string[]>(formData, {
      resolve: (payload) => {
        const error = fieldErrors(checks, payload)
        return Object.keys(error).length ? { error } : { value: payload as Values }
      },
    })
}
