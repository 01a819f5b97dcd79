// The webhook commands, one schema each, shared by the settings forms (conform, in the browser), their actions and
// the API operations (app/.server/api-v1/operations/webhooks.ts). Messages are i18n keys. Pure: no server imports.
import { z } from 'zod'
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX } from './webhooks.ts'

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && Boolean(url.hostname)
  } catch {
    return false
  }
}

export const WebhookUrlSchema = z
  .string({ error: 'webhooks.errors.urlRequired' })
  .trim()
  .min(1, { error: 'webhooks.errors.urlRequired' })
  .max(WEBHOOK_URL_MAX, { error: 'webhooks.errors.urlTooLong' })
  .refine(isHttpUrl, { error: 'webhooks.errors.urlInvalid' })
  .meta({ description: 'Where deliveries are POSTed: an https URL on a public address.', example: 'https://example.com/leadatlas/webhooks' })

/** The events of an endpoint: one `events` value per ticked box in a form (conform makes one value a list). */
const WebhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS).meta({ id: 'WebhookEventName', description: 'An event an endpoint can subscribe to.' }), { error: 'webhooks.errors.eventsRequired' })
  .min(1, { error: 'webhooks.errors.eventsRequired' })
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event)))
  .meta({ example: ['export.completed', 'export.failed'] })

/** A new endpoint: `{ url, events }`, as the API's body and the create form's fields. */
export const WebhookEndpointFieldsSchema = z.object({ url: WebhookUrlSchema, events: WebhookEventsSchema })

export const CreateWebhookEndpointSchema = WebhookEndpointFieldsSchema.extend({ intent: z.literal('create-endpoint') })

const UpdateWebhookEventsSchema = z.object({ intent: z.literal('update-events'), events: WebhookEventsSchema })

/** The commands of an endpoint's page, each a small form (the events form is the only one with fields to check). */
export const WebhookEndpointCommandSchema = z.discriminatedUnion('intent', [
  UpdateWebhookEventsSchema,
  z.object({ intent: z.literal('set-enabled'), enabled: z.enum(['true', 'false']).transform((value) => value === 'true') }),
  z.object({ intent: z.literal('rotate-secret') }),
  z.object({ intent: z.literal('send-test') }),
  z.object({ intent: z.literal('delete-endpoint') }),
  z.object({ intent: z.literal('redeliver'), deliveryId: z.string() }),
])
