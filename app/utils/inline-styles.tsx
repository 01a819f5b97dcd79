import { createContext, useContext } from 'react'

// The stylesheet, inlined in <head> by the server (app/.server/inline-styles.ts). A <link> to it
// blocks the first paint for one more round trip, and React puts the page's module preloads before
// it, so on a slow link the stylesheet shares the bandwidth with all the scripts: /login painted
// after ~7.5 s on "Slow 3G" (2 s latency, 400 kbit/s), now one round trip after the HTML.
const InlineStylesContext = createContext<string | null>(null)

export const InlineStylesProvider = InlineStylesContext.Provider

const STYLE_ID = 'app-styles'

// In the browser: the text the server inlined, read once, so hydration renders the very same element.
const inlinedByServer = typeof document === 'undefined' ? null : (document.getElementById(STYLE_ID)?.textContent ?? null)

/** The app's stylesheet as a <style> element (nothing when the server did not inline it: development). */
export function InlineStyles() {
  const css = useContext(InlineStylesContext) ?? inlinedByServer
  if (css === null) return null
  return <style id={STYLE_ID} dangerouslySetInnerHTML={{ __html: css }} />
}
