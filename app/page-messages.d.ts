// A bundle of namespaces (the signed-in app's, or one page's), in one language (vite.config.ts `pageMessages`,
// app/i18n.ts PAGE_MESSAGES).
declare module 'virtual:page-messages/*' {
  type Messages = { [key: string]: string | Messages }
  const messages: Messages
  export default messages
}
