// Configuration read from the environment, once. Secrets never leave the server.
function required(name: string) {
  const value = process.env[name]
  if (!value) throw new Error(`Missing environment variable ${name}. See .env.example.`)
  return value
}

export const env = {
  get supabaseUrl() {
    return required('SUPABASE_URL')
  },
  get supabaseAnonKey() {
    return required('SUPABASE_ANON_KEY')
  },
  get isProduction() {
    return process.env.NODE_ENV === 'production'
  },
  /** Cookies get the Secure flag when the app is served over https. */
  get secureCookies() {
    return process.env.COOKIE_SECURE ? process.env.COOKIE_SECURE === 'true' : (process.env.APP_URL ?? '').startsWith('https:')
  },
  get bookDemoUrl() {
    return process.env.BOOK_DEMO_URL || 'mailto:sales@leadatlas.app?subject=LeadAtlas%20demo'
  },
}
