// Technology fingerprinting, one rule kind of the Wappalyzer format at a time, on small pages (issue "Contact
// quality", item 3): every kind a fetched page can answer is evaluated, on every crawled page, pooled per site.
import { describe, expect, it } from 'vitest'
import { type DetectedTechnology, detectSiteTechnologies, detectTechnologies, type TechnologyInput } from '#app/.server/enrichment/technologies.ts'

function page(html: string, extra: Partial<TechnologyInput> = {}): TechnologyInput {
  return { url: 'https://atelier.fr/', html, scriptSrc: [], meta: {}, headers: {}, ...extra }
}

const names = (found: DetectedTechnology[]) => found.map((t) => t.name)
const detect = (html: string, extra: Partial<TechnologyInput> = {}) => names(detectTechnologies(page(html, extra)))

describe('technology rule kinds', () => {
  it('dom exists: a selected element is enough (reCAPTCHA widget)', () => {
    expect(detect('<form><div class="g-recaptcha" data-sitekey="x"></div></form>')).toContain('reCAPTCHA')
    expect(detect('<form><div class="recaptcha-like"></div></form>')).not.toContain('reCAPTCHA')
  })

  it('dom attributes: the attribute value must match (Google Fonts stylesheet, Font Awesome version)', () => {
    expect(detect('<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Lato&amp;display=swap">')).toContain('Google Font API')
    expect(detect('<link rel="stylesheet" href="https://example.com/fonts.gif">')).not.toContain('Google Font API')
    const fa = detectTechnologies(page('<link rel="stylesheet" href="/vendor/font-awesome/4.7.0/css/font-awesome.min.css">')).find((t) => t.name === 'Font Awesome')
    expect(fa?.version).toBe('4.7.0')
    expect(detect('<p><i class="fa fa-phone"></i> 01 02 03 04 05</p>')).toContain('Font Awesome')
    expect(detect('<p class="faq">Questions</p>')).not.toContain('Font Awesome')
  })

  it('dom text: the selected element’s text must match (Bootstrap 5 custom properties in a style element)', () => {
    expect(detect('<style>:root{--bs-tertiary-bg:#f8f9fa}</style>')).toContain('Bootstrap')
    expect(detect('<style>:root{--brand:#f8f9fa}</style>')).not.toContain('Bootstrap')
  })

  it('dom: stylesheet links of CDNs and of WordPress themes (requires WordPress)', () => {
    expect(detect('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/swiper@11/swiper-bundle.min.css">')).toContain('jsDelivr')
    const theme = '<link rel="stylesheet" id="generate-style-css" href="/wp-content/themes/generatepress/assets/css/main.min.css?ver=3.3.1">'
    expect(detect(theme)).toContain('WordPress') // the /wp-content/ path
    expect(detect(theme)).toContain('GeneratePress')
    expect(detect('<link rel="stylesheet" id="generate-style-css" href="/assets/generatepress.css">')).not.toContain('GeneratePress')
  })

  it('scripts: inline script code (a reCAPTCHA loader written by hand)', () => {
    expect(detect("<script>var s=document.createElement('script');s.src='https://www.google.com/recaptcha/api.js';document.head.appendChild(s)</script>")).toContain('reCAPTCHA')
    expect(detect('<script type="application/ld+json">{"url":"https://www.google.com/recaptcha/api.js"}</script>')).not.toContain('reCAPTCHA')
  })

  it('css: inline style sheets (Material UI class rules)', () => {
    expect(detect('<style>.MuiPaper-root{color:red}</style>')).toContain('Material UI')
    expect(detect('<p>.MuiPaper-root is a class name</p>')).not.toContain('Material UI')
  })

  it('html, url and robots.txt', () => {
    expect(detect('<html><head><link rel="stylesheet" href="/css/bootstrap.min.css"></head></html>')).toContain('Bootstrap')
    expect(detect('<html><head><link rel="stylesheet" href="/css/theme.min.css"></head></html>')).not.toContain('Bootstrap')
    expect(detect('<p>Newsletter</p>', { url: 'https://acme.activehosted.com/f/1' })).toContain('ActiveCampaign')
    expect(detect('<p>Boutique</p>', { robots: 'User-agent: *\n# Powered by Shoporama\nDisallow: /basket' })).toContain('Shoporama')
  })

  it('headers, cookies, meta and script URLs', () => {
    expect(detect('<p></p>', { headers: { Server: 'nginx' } })).toContain('Nginx')
    expect(detect('<p></p>', { cookies: ['PHPSESSID=abc; path=/'] })).toContain('PHP')
    expect(detect('<p></p>', { meta: { generator: ['Joomla! - Open Source Content Management'] } })).toContain('Joomla')
    expect(detect('<p></p>', { scriptSrc: ['https://code.jquery.com/jquery-3.7.1.min.js'] })).toContain('jQuery')
  })

  it('requires: a plugin is taken only on top of what it requires (Elementor on WordPress)', () => {
    const elementor = '<link rel="stylesheet" href="https://atelier.fr/wp-content/plugins/elementor/assets/css/frontend.min.css">'
    expect(detect(elementor)).toEqual(expect.arrayContaining(['WordPress', 'Elementor']))
    expect(detect(elementor.replace('/wp-content/plugins/elementor/', '/static/elementor/'))).not.toContain('Elementor')
  })

  it('implies: implied technologies come with the one found (cdnjs implies Cloudflare)', () => {
    expect(detect('<link rel="stylesheet" href="https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.5.1/css/all.min.css">')).toEqual(expect.arrayContaining(['cdnjs', 'Cloudflare']))
  })

  it('js globals and dom properties are not evaluated (they need running scripts)', () => {
    expect(detect('<script>window.FontAwesomeKitConfig = {}</script><div id="root"></div>')).toEqual([])
  })

  it('survives unreadable markup and selectors on odd pages', () => {
    expect(() => detect('<div <<< class="g-recaptcha"><a href="x"'.repeat(200))).not.toThrow()
    expect(detect('')).toEqual([])
  })
})

describe('site technologies (every crawled page, pooled)', () => {
  const home = page('<p>Accueil</p>', { scriptSrc: ['https://code.jquery.com/jquery-3.7.1.min.js'] })
  const contact = page('<form><div class="g-recaptcha"></div></form>', { url: 'https://atelier.fr/contact' })

  it('finds what only another page loads', () => {
    expect(names(detectSiteTechnologies([home, contact]))).toEqual(expect.arrayContaining(['jQuery', 'reCAPTCHA']))
    expect(names(detectSiteTechnologies([home]))).not.toContain('reCAPTCHA')
  })

  it('counts the same pattern once however many pages match it (confidence as the format defines)', () => {
    // Akamai's "aksb.min.js" script pattern has confidence 50: two pages loading it are still 50.
    const akamai = (url: string) => page('<p></p>', { url, scriptSrc: ['https://atelier.fr/js/aksb.min.js'] })
    const found = detectSiteTechnologies([akamai('https://atelier.fr/'), akamai('https://atelier.fr/contact')])
    expect(found.find((t) => t.name === 'Akamai Web Application Protector')?.confidence).toBe(50)
  })

  it('resolves requirements across pages (WordPress on the home page, a plugin on the contact page)', () => {
    const wordpress = page('<meta name="generator" content="WordPress 6.5">', { meta: { generator: ['WordPress 6.5'] } })
    const cf7 = page("<link rel='stylesheet' id='contact-form-7-css' href='https://atelier.fr/wp-content/plugins/contact-form-7/includes/css/styles.css?ver=5.8.4'>", { url: 'https://atelier.fr/contact' })
    expect(names(detectSiteTechnologies([wordpress, cf7]))).toContain('Contact Form 7')
  })
})
