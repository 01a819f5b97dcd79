// The compiled stylesheet (Tailwind included) as text, for the server to inline into every page
// (app/utils/inline-styles.tsx). Vite builds it once; it stays out of the browser's bundle.
import css from '#app/app.css?inline'

export const inlineStyles: string | null = import.meta.env.PROD ? css : null
