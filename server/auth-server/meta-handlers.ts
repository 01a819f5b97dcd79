import type { AuthContext } from './context.ts'
import type { Reply } from './reply.ts'

/** GET /health */
export async function health(): Promise<Reply> {
  return {
    status: 200,
    body: { version: 'local', name: 'GoTrue', description: 'LeadAtlas local auth server (dev/test only)' },
  }
}

/** GET /settings — what the local server supports: email/password only, sign-ups auto-confirmed. */
export async function settings(): Promise<Reply> {
  return {
    status: 200,
    body: {
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    },
  }
}

/** GET /.well-known/jwks.json — the public key supabase-js' getClaims() verifies with. */
export async function jwks(ctx: AuthContext): Promise<Reply> {
  return { status: 200, body: { keys: [ctx.keys.publicJwk] } }
}
