import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { ServerRouter, type EntryContext, type HandleDataRequestFunction, type HandleErrorFunction, type RouterContextProvider } from 'react-router'
import { safeI18n } from '#app/.server/i18n.ts'
import { CoalescingStream } from '#app/.server/coalescing-stream.ts'
import { cspNonce } from '#app/.server/internal-headers.ts'
import { isDatabaseUnavailable } from '#app/.server/db-errors.ts'
import { inlineStyles } from '#app/.server/inline-styles.ts'
import { componentLogger } from '#app/.server/observability/logger.ts'
import { InlineStylesProvider } from '#app/utils/inline-styles.tsx'
import { NonceProvider } from '#app/utils/nonce.tsx'
import { serverMarkupContext, ServerMarkupProvider } from '#app/utils/server-markup.tsx'

export const streamTimeout = 5_000

/** Errors of loaders, actions and rendering: scrubbed log lines (logger.ts), never a raw dump on stdout. */
const log = componentLogger('app')

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
  // Pages may show the signed-in user's data: never stored by a browser or a shared cache.
  responseHeaders.set('Cache-Control', 'private, no-store')
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }
  const nonce = cspNonce(request)
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
    // Assigned once React returns the stream; the timer and callbacks only run after that.
    let abort: () => void = () => {}
    let pipe: (destination: CoalescingStream) => void = () => {}
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)
    const fail = (error: unknown) => {
      clearTimeout(timeoutId)
      timeoutId = undefined
      reject(error)
    }

    try {
      const stream = renderToPipeableStream(
        <NonceProvider value={nonce}>
          {/* The error page must render even when the request failed before the i18n middleware ran. */}
          <I18nextProvider i18n={safeI18n(loadContext)}>
            <InlineStylesProvider value={inlineStyles}>
              <ServerMarkupProvider value={loadContext.get(serverMarkupContext)}>
                <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
              </ServerMarkupProvider>
            </InlineStylesProvider>
          </I18nextProvider>
        </NonceProvider>,
        {
          nonce,
          // React sends a finished <Suspense> boundary after the rest of the page, to be moved in
          // place by a script, once the page is past this many bytes (default 12 800): without
          // JavaScript it would never show (e.g. the export modal, app/components/search/lazy-export-modal.tsx).
          progressiveChunkSize: Number.POSITIVE_INFINITY,
          [readyOption]() {
            shellRendered = true
            const body = new CoalescingStream({
              onFinal() {
                clearTimeout(timeoutId)
                timeoutId = undefined
              },
            })
            pipe(body)
            resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          },
          onShellError: fail,
          onError(error: unknown) {
            responseStatusCode = 500
            if (shellRendered) log.error({ err: error }, '[app] render error')
          },
        },
      )
      pipe = (destination) => void stream.pipe(destination)
      abort = stream.abort
    } catch (error) {
      fail(error)
    }
  })
}

/** Client navigations fetch the same data as `.data` (single fetch): kept out of every cache like the pages. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set('Cache-Control', 'private, no-store')
  return response
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return
  if (isDatabaseUnavailable(error)) {
    log.error(`[app] database unavailable: ${(error as Error).message}`)
    return
  }
  log.error({ err: error, method: request.method, path: new URL(request.url).pathname }, '[app] unhandled error')
}
