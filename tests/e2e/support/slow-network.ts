import type { Page } from '@playwright/test'

/** How late the slowed responses arrive: long enough to type a whole form meanwhile. */
const SLOW_MS = 2_500

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** JavaScript modules arrive late: the server-rendered form is on screen, typeable, not yet hydrated. */
async function slowScripts(page: Page, ms = SLOW_MS) {
  await page.route(/\.m?js(\?.*)?$/, async (route) => {
    await sleep(ms)
    await route.fallback()
  })
}

/** Loader and action data (`.data` single-fetch requests, `_data` of older clients) arrive late. */
export async function slowData(page: Page, ms = SLOW_MS) {
  await page.route(
    (url) => url.pathname.endsWith('.data') || url.searchParams.has('_data'),
    async (route) => {
      await sleep(ms)
      await route.fallback()
    },
  )
}

/** Every document navigation (links, form posts) arrives late: what a visitor without JavaScript waits for. */
export async function slowDocuments(page: Page, ms = SLOW_MS) {
  await page.route('**/*', async (route) => {
    if (route.request().isNavigationRequest()) await sleep(ms)
    await route.fallback()
  })
}

/**
 * Opens `url` on a slow connection and returns as soon as the form can be typed into: with
 * JavaScript, before the (delayed) scripts have hydrated the page; without, once the (delayed)
 * document landed. Later data requests and documents are slow too.
 */
export async function openSlowly(page: Page, url: string, { js }: { js: boolean }) {
  // A second call on the same page must not stack another delay on every response.
  await page.unrouteAll({ behavior: 'ignoreErrors' })
  if (js) {
    await slowScripts(page)
    await slowData(page)
    await page.goto(url, { waitUntil: 'commit' })
  } else {
    await slowDocuments(page)
    await page.goto(url)
  }
}

/** Resolves once React has hydrated the page and run its effects (a no-op without JavaScript). */
export async function waitForHydration(page: Page, { js }: { js: boolean }) {
  if (!js) return
  // React tags the DOM nodes it hydrated with its fiber; the header's forms exist on every page. A page served without
  // React (/login: root.tsx's DocumentHandle) is ready once its own script marked <html> (app/islands/login-page.ts).
  await page.waitForFunction(
    () => {
      if (document.documentElement.dataset.enhanced === 'true') return true
      const form = document.querySelector('main form, section form, form')
      return Boolean(form && Object.keys(form).some((key) => key.startsWith('__reactFiber')))
    },
    undefined,
    { timeout: 30_000 },
  )
  // Effects after hydration (useHydrated swaps, state restored from the DOM) run in the next frames.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))))
}
