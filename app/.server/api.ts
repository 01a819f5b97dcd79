import { data, type RouterContextProvider } from 'react-router'
import { getOptionalUser, type SessionUser } from './auth.ts'
import { getInstance } from './i18n.ts'
import { ExportRefBodySchema } from '#app/domain/export-commands.ts'

/** /api routes answer JSON: a missing session is a 401 with the spec's message, never a redirect. */
export async function requireApiUser(context: Readonly<RouterContextProvider>): Promise<SessionUser> {
  const user = await getOptionalUser(context)
  if (!user) {
    const t = getInstance(context).t
    throw data({ error: t('api.unauthenticated'), message: t('api.unauthenticated') }, { status: 401 })
  }
  return user
}

/** Parses a JSON body; malformed JSON or a non-object is the client's mistake (400), not ours. */
export async function readJsonObject(request: Request, context: Readonly<RouterContextProvider>): Promise<Record<string, unknown>> {
  const t = getInstance(context).t
  let body: unknown
  try {
    body = await request.json()
  } catch {
    throw data({ error: 'bad_json', message: t('api.badJson') }, { status: 400 })
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw data({ error: 'bad_json', message: t('api.badJson') }, { status: 400 })
  return body as Record<string, unknown>
}

/**
 * The spec's export calls carry the user id in the payload; it must be the session's user.
 * A missing id is the client's mistake (400), someone else's id is refused (403).
 */
export function assertPayloadUser(context: Readonly<RouterContextProvider>, user: SessionUser, userId: unknown) {
  const t = getInstance(context).t
  if (typeof userId !== 'string' || !userId) throw data({ error: t('exports.errors.userId'), message: t('exports.errors.userId') }, { status: 400 })
  if (userId !== user.id) throw data({ error: t('api.forbidden'), message: t('api.forbidden') }, { status: 403 })
}

/**
 * The {exportId, userId} calls (SPEC §7 queue, resume): the session's user, the export it names (a malformed id is
 * not found: 404) and the translator for the answer.
 */
export async function readExportRefCommand(request: Request, context: Readonly<RouterContextProvider>) {
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  assertPayloadUser(context, user, body.userId)
  const t = getInstance(context).t
  const command = ExportRefBodySchema.safeParse(body)
  if (!command.success) throw data({ error: 'not_found', message: t('exports.errors.notFound') }, { status: 404 })
  return { user, exportId: command.data.exportId, t }
}
