// The /settings/api key forms, one schema each, shared by the form (conform, in the browser) and the action. Messages
// are i18n keys.
import { z } from 'zod'
import { API_KEY_NAME_MAX } from './api-keys.ts'

export const CreateApiKeySchema = z.object({
  intent: z.literal('create-key'),
  name: z
    .string({ error: 'apiSettings.errors.nameRequired' })
    .trim()
    .min(1, { error: 'apiSettings.errors.nameRequired' })
    .max(API_KEY_NAME_MAX, { error: 'apiSettings.errors.nameTooLong' }),
})

const RevokeApiKeySchema = z.object({ intent: z.literal('revoke-key'), id: z.string() })

export const ApiKeyCommandSchema = z.discriminatedUnion('intent', [CreateApiKeySchema, RevokeApiKeySchema])
