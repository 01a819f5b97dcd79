import { chromium } from '@playwright/test'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
const [w, h, lang, name, hash, offsets] = process.argv.slice(2)
const context = await browser.newContext({ viewport: { width: Number(w), height: Number(h) }, locale: lang === 'fr' ? 'fr-FR' : 'en-US' })
const page = await context.newPage()
await page.goto('http://127.0.0.1:4431/developers' + (hash ?? ''))
for (const [i, off] of (offsets ?? '0').split(',').entries()) {
  await page.evaluate((y) => window.scrollBy(0, y), Number(off))
  await page.screenshot({ path: `/tmp/shots/${name}-${i}.png` })
}
await browser.close()
