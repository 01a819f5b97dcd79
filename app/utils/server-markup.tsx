import { createContext as createReactContext, useContext } from 'react'
import { createContext, type RouterContextProvider } from 'react-router'

/**
 * Markup a loader rendered for its page, handed to the server render beside the loader data rather than in it:
 * React Router serializes every document's loader data for hydration (turbo-stream, ≈ 3 ms of CPU per 100 KB of
 * text) even on a page that ships no script and so never reads it. Server only: entry.server.tsx passes it on.
 */
export const serverMarkupContext = createContext<ReadonlyMap<string, string> | null>(null)

/** Called by a loader: `html` is served as it is (it must be markup React rendered, never text from a request). */
export function setServerMarkup(context: Readonly<RouterContextProvider>, id: string, html: string) {
  const markup = new Map(context.get(serverMarkupContext) ?? [])
  markup.set(id, html)
  ;(context as RouterContextProvider).set(serverMarkupContext, markup)
}

const ServerMarkupContext = createReactContext<ReadonlyMap<string, string> | null>(null)

export const ServerMarkupProvider = ServerMarkupContext.Provider

/** The markup a loader set under `id` (undefined in the browser: such pages are only rendered by the server). */
export function useServerMarkup(id: string): string | undefined {
  return useContext(ServerMarkupContext)?.get(id)
}
