import { getFormProps, useForm } from '@conform-to/react'
import type * as ExportCommands from '#app/domain/export-commands.ts'
import { useLazyValidation } from '#app/utils/lazy-validation.ts'

type CommandSchemaName = 'ResumeCommandSchema' | 'DeleteCommandSchema' | 'AddEnrichmentCommandSchema'

/**
 * The form props of a command whose schema (app/domain/export-commands.ts) the action parses too: the
 * browser checks the same shape before posting once the schema has loaded (on the first interaction,
 * app/utils/lazy-validation.ts), and without JavaScript the plain post reaches the same parse.
 */
export function useCommandForm(id: string, schemaName: CommandSchemaName) {
  const validation = useLazyValidation(id, () => loadCommands().then((module) => module[schemaName]), { shouldValidate: 'onSubmit', shouldRevalidate: 'onSubmit' })
  const [form] = useForm({ id, ...validation })
  return getFormProps(form)
}

const loadCommands = (): Promise<typeof ExportCommands> => import('#app/domain/export-commands.ts')
