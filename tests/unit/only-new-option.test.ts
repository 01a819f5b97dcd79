import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { CreateExportSchema } from '#app/domain/export-commands.ts'

function form(entries: Array<[string, string]>): FormData {
  const data = new FormData()
  for (const [key, value] of entries) data.append(key, value)
  return data
}

describe('"only new businesses" on the create-export form', () => {
  const base: Array<[string, string]> = [['intent', 'create-export'], ['name', 'Bakeries'], ['options', 'email']]

  it('is on when the box is checked, and absent otherwise', () => {
    const checked = parseWithZod(form([...base, ['onlyNew', 'on']]), { schema: CreateExportSchema })
    expect(checked.status === 'success' && checked.value.onlyNew).toBe(true)
    const unchecked = parseWithZod(form(base), { schema: CreateExportSchema })
    expect(unchecked.status === 'success' && unchecked.value.onlyNew).toBeUndefined()
  })

  it('refuses any other value than a checkbox sends', () => {
    expect(parseWithZod(form([...base, ['onlyNew', 'yes']]), { schema: CreateExportSchema }).status).toBe('error')
  })
})
