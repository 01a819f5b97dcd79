import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'

type CommandSchema = Parameters<typeof parseWithZod>[1]['schema']

/**
 * The form props of a command whose schema (app/domain/export-commands.ts) the action parses too: the
 * browser checks the same shape before posting, and without JavaScript the plain post reaches the same parse.
 */
export function useCommandForm(id: string, schema: CommandSchema) {
  const [form] = useForm({ id, onValidate: ({ formData }) => parseWithZod(formData, { schema }), shouldValidate: 'onSubmit' })
  return getFormProps(form)
}
