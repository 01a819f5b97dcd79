import { describe, expect, it } from 'vitest'
import { cleanEmail, emailsFromText } from '#app/.server/enrichment/emails.ts'
import { companyIdsFromText } from '#app/.server/enrichment/siret.ts'
import { classifySocialUrl } from '#app/.server/enrichment/social.ts'
import { type FieldScore, loadCorpus, precision, recall, scoreCorpus } from '#tests/support/site-corpus.ts'

describe('extractor fixes found with the discovery corpus (tests/fixtures/sites)', () => {
  it('reads "arobase" with a real dot, words for dot, and at-words of other languages', () => {
    expect(emailsFromText('Écrire : agence arobase atelier-ma.fr')).toEqual(['agence@atelier-ma.fr'])
    expect(emailsFromText('julie point perrin arobase coaching-perrin point fr')).toEqual(['julie.perrin@coaching-perrin.fr'])
    expect(emailsFromText('info (at) baeckerei-huber (punkt) de')).toEqual(['info@baeckerei-huber.de'])
    expect(emailsFromText('citas [arroba] peluqueriacarmen.es')).toEqual(['citas@peluqueriacarmen.es'])
    expect(emailsFromText('info [chiocciola] gelateriabianchi.it')).toEqual(['info@gelateriabianchi.it'])
  })

  it('drops sample names, sample domains and platform / theme-vendor addresses', () => {
    for (const junk of ['jean.dupont@gmail.com', 'max.mustermann@gmx.de', 'mario.rossi@esempio.it', 'vorname.nachname@ihre-firma.ch', 'name@website.com', 'pub@prestashop.com', 'support@shopify.com', 'support@themegrill.com']) {
      expect(cleanEmail(junk), junk).toBeNull()
    }
    expect(cleanEmail('jean.dupont.plombier@gmail.com')).toBe('jean.dupont.plombier@gmail.com')
  })

  it('ignores the profiles of site builders and theme vendors that templates link by default', () => {
    for (const url of ['https://www.facebook.com/shopify', 'https://www.instagram.com/wix/', 'https://twitter.com/wix', 'https://www.youtube.com/shopify', 'https://www.facebook.com/themegrill']) {
      expect(classifySocialUrl(url), url).toBeNull()
    }
    expect(classifySocialUrl('https://www.facebook.com/wixlerboulangerie')).toBe('facebook')
  })

  it('reads SIREN / SIRET written across lines, before their label, after RM, or inside a VAT number', () => {
    expect(companyIdsFromText('immatriculée au RCS de\nParis sous le numéro 670 866 177.').siren).toBe('670866177')
    expect(companyIdsFromText('RCS\nAnnecy\n509 556 098 – Carte professionnelle').siren).toBe('509556098')
    expect(companyIdsFromText('Siret : 559 132 410\n00056 – APE 4520A').siret).toBe('55913241000056')
    expect(companyIdsFromText('Numéro d’immatriculation : 850 616 327 R.C.S. Reims').siren).toBe('850616327')
    expect(companyIdsFromText('Répertoire des Métiers du Haut-Rhin sous le n° 687 890 947 RM 68').siren).toBe('687890947')
    expect(companyIdsFromText('TVA intracommunautaire : FR 93 598058493').siren).toBe('598058493')
    expect(companyIdsFromText('SELARL – 858 653 181 00025 (SIRET) – Ordre').siret).toBe('85865318100025')
    // A Belgian VAT number or a long card number is not a SIREN.
    expect(companyIdsFromText('TVA BE 0123.456.789 – CPI 7401 2019 000 012 345')).toEqual({ siret: null, siren: null })
  })
})

describe('discovery corpus floor (figures measured by bench/discovery.ts, rounded down)', () => {
  const sites = loadCorpus()
  const scores = scoreCorpus(sites)
  const field = (name: string) => scores.find((s) => s.field === name) as FieldScore
  const total = (names: string[]) => {
    const picked = scores.filter((s) => names.includes(s.field))
    const tp = picked.reduce((n, s) => n + s.truePositives, 0)
    return { recall: tp / picked.reduce((n, s) => n + s.expected, 0), precision: tp / picked.reduce((n, s) => n + s.found, 0) }
  }

  it('has at least 60 hand-written sites, Belgian, Swiss and Québec ones among them, some crawled for another country', () => {
    expect(sites.length).toBeGreaterThanOrEqual(60)
    const of = (country: string) => sites.filter((site) => site.expected.country === country).length
    expect([of('BE'), of('CH'), of('CA')].every((n) => n >= 1) && of('BE') + of('CH') >= 8).toBe(true)
    expect(sites.filter((site) => site.expected.leadCountry !== undefined && site.expected.leadCountry !== site.expected.country).length).toBeGreaterThanOrEqual(5)
  })

  it.each([
    ['email', 0.98, 1],
    ['phone', 0.98, 1],
    ['technologies', 0.97, 0.88],
  ])('%s: recall ≥ %s, precision ≥ %s', (name, minRecall, minPrecision) => {
    const score = field(name)
    expect(recall(score), score.misses.join('\n')).toBeGreaterThanOrEqual(minRecall)
    expect(precision(score), score.falsePositives.join('\n')).toBeGreaterThanOrEqual(minPrecision)
  })

  it('social profiles and SIREN/SIRET: every one found, nothing wrong taken', () => {
    expect(total(['facebook', 'instagram', 'linkedin', 'twitter', 'youtube', 'tiktok'])).toEqual({ recall: 1, precision: 1 })
    expect(total(['siret', 'siren'])).toEqual({ recall: 1, precision: 1 })
  })
})
