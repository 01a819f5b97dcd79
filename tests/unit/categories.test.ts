import { describe, expect, it } from 'vitest'
import { CATEGORY_ID_PATTERN, filterCategories, type CategoryOption } from '#app/domain/categories.ts'
import { normalizeForSearch, rankMatch } from '#app/domain/text.ts'
import { allCategories, findCategory, getCategory, listCategories } from '#app/.server/taxonomy/categories.ts'

describe('normalizeForSearch', () => {
  it('lowercases and strips accents', () => {
    expect(normalizeForSearch('Boulangérie')).toBe('boulangerie')
    expect(normalizeForSearch('BOULANGERIE')).toBe('boulangerie')
    expect(normalizeForSearch('Île-de-France')).toBe('ile de france')
    expect(normalizeForSearch('Café')).toBe('cafe')
  })

  it('folds ligatures, typographic apostrophes and spacing', () => {
    expect(normalizeForSearch('Œuvre d’art')).toBe('oeuvre d art')
    expect(normalizeForSearch('  Salon   de  coiffure ')).toBe('salon de coiffure')
    expect(normalizeForSearch('Straße')).toBe('strasse')
  })

  it('gives the same result on the plain-ASCII fast path', () => {
    expect(normalizeForSearch('North Rhine-Westphalia')).toBe('north rhine westphalia')
    expect(normalizeForSearch('Quote`s')).toBe('quote s')
    expect(normalizeForSearch('st etienne')).toBe(normalizeForSearch('Saint-Étienne'))
  })

  it('folds spaces, hyphens and apostrophes alike, and spells St/Ste out (issue 19: "ile de france" found nothing)', () => {
    const same = (a: string, b: string) => expect(normalizeForSearch(a)).toBe(normalizeForSearch(b))
    same('ile de france', 'Île-de-France')
    same('ile-de  france', 'Île-de-France')
    same("L'Haÿ-les-Roses", 'l hay les roses')
    same('L’Isle-sur-la-Sorgue', "l'isle sur la sorgue")
    same('St-Étienne', 'saint etienne')
    same('St. Gallen', 'Saint-Gallen')
    same('Ste Foy les Lyon', 'Sainte-Foy-lès-Lyon')
    // A lone "st" is someone typing "Strasbourg", not "Saint".
    expect(normalizeForSearch('st')).toBe('st')
    expect(normalizeForSearch('Strasbourg')).toBe('strasbourg')
  })
})

describe('rankMatch', () => {
  it('ranks exact, prefix, word prefix, substring, all words', () => {
    expect(rankMatch('cafe', 'cafe')).toBe(0)
    expect(rankMatch('cafeteria', 'cafe')).toBe(1)
    expect(rankMatch('internet cafe', 'cafe')).toBe(2)
    expect(rankMatch('cybercafe', 'cafe')).toBe(3)
    expect(rankMatch('salon de coiffure', 'salon coiffure')).toBe(4)
    expect(rankMatch('bakery', 'cafe')).toBeNull()
    // Separators left out altogether still match.
    expect(rankMatch('ile de france', 'iledefr')).toBe(3)
    expect(rankMatch('ile de france', 'ile de paris')).toBeNull()
  })
})

describe('category taxonomy', () => {
  const categories = allCategories()

  it('has at least 200 categories with unique ids', () => {
    expect(categories.length).toBeGreaterThanOrEqual(200)
    expect(new Set(categories.map((c) => c.id)).size).toBe(categories.length)
  })

  it('gives every category fr and en labels, an OSM tag and well-formed codes', () => {
    for (const category of categories) {
      // The pattern the API declares for a category id.
      expect(category.id).toMatch(CATEGORY_ID_PATTERN)
      expect(category.labels.fr.trim()).not.toBe('')
      expect(category.labels.en.trim()).not.toBe('')
      expect(category.osm.key).toMatch(/^[a-z_]+$/)
      expect(category.osm.value).toMatch(/^[a-z0-9_-]+$/)
      expect(Array.isArray(category.terms.fr) && Array.isArray(category.terms.en)).toBe(true)
      for (const code of category.naf) expect(code).toMatch(/^\d{2}\.\d{2}[A-Z]$/)
      if (category.googleType !== null) expect(category.googleType).toMatch(/^[a-z_]+$/)
    }
  })

  it('maps common categories to Google types and NAF codes', () => {
    expect(getCategory('restaurant')).toMatchObject({
      osm: { key: 'amenity', value: 'restaurant' },
      googleType: 'restaurant',
      naf: ['56.10A'],
      labels: { fr: 'Restaurant', en: 'Restaurant' },
    })
    expect(getCategory('shop-bakery')).toMatchObject({
      osm: { key: 'shop', value: 'bakery' },
      googleType: 'bakery',
      naf: ['10.71C'],
      labels: { fr: 'Boulangerie', en: 'Bakery' },
    })
    expect(getCategory('dentist')?.googleType).toBe('dentist')
    expect(getCategory('no-such-category')).toBeNull()
  })

  it('leaves out non-business presets', () => {
    const tags = new Set(categories.map((c) => `${c.osm.key}=${c.osm.value}`))
    for (const tag of ['amenity=bench', 'amenity=toilets', 'amenity=parking', 'amenity=waste_basket', 'shop=vacant']) {
      expect(tags.has(tag)).toBe(false)
    }
  })
})

describe('listCategories', () => {
  it('returns {id, value, label} sorted by label in each language', () => {
    for (const lang of ['fr', 'en'] as const) {
      const options = listCategories(lang)
      expect(options.length).toBe(allCategories().length)
      const collator = new Intl.Collator(lang, { sensitivity: 'base' })
      for (let i = 1; i < options.length; i++) {
        expect(collator.compare(options[i - 1]!.label, options[i]!.label)).toBeLessThanOrEqual(0)
      }
      for (const option of options) expect(option.value).toBe(option.id)
    }
    expect(listCategories('fr').find((o) => o.id === 'shop-bakery')?.label).toBe('Boulangerie')
    expect(listCategories('en').find((o) => o.id === 'shop-bakery')?.label).toBe('Bakery')
  })

  it('is memoised per language', () => {
    expect(listCategories('fr')).toBe(listCategories('fr'))
    expect(listCategories('en')).not.toBe(listCategories('fr'))
  })
})

describe('filterCategories', () => {
  const fr = listCategories('fr')
  const en = listCategories('en')
  const ids = (options: readonly CategoryOption[]) => options.map((o) => o.id)

  it('ignores case and accents', () => {
    const plain = filterCategories(fr, 'boulangerie')
    expect(ids(plain.items)).toContain('shop-bakery')
    expect(filterCategories(fr, 'Boulangérie')).toEqual(plain)
    expect(filterCategories(fr, 'BOULANGERIE')).toEqual(plain)
  })

  it('finds "Café" from "cafe", first', () => {
    expect(filterCategories(fr, 'cafe').items[0]?.label).toBe('Café')
    expect(filterCategories(en, 'café').items[0]?.label).toBe('Cafe')
  })

  it('ranks prefix and word matches before substrings', () => {
    const labels = filterCategories(fr, 'cafe').items.map((o) => o.label)
    // "Cybercafé" only contains "cafe" inside a word: after every prefix/word match.
    const cyber = labels.indexOf('Cybercafé')
    expect(cyber).toBeGreaterThan(0)
    expect(labels.indexOf('Café')).toBeLessThan(cyber)
    // Labels only: exact terms ("shop" is one) rank before loose label matches, by design.
    const labelsOnly = en.map(({ id, value, label }) => ({ id, value, label }))
    const ranked = filterCategories(labelsOnly, 'shop').items.map((o) => o.label)
    const firstSubstring = ranked.findIndex((label) => !/(^|[\s/(-])shop/i.test(label))
    const lastWordMatch = ranked.reduce((last, label, i) => (/(^|[\s/(-])shop/i.test(label) ? i : last), -1)
    if (firstSubstring !== -1) expect(lastWordMatch).toBeLessThan(firstSubstring)
  })

  it('limits to 50 and reports tooMany', () => {
    const all = filterCategories(fr, '')
    expect(all.items).toHaveLength(50)
    expect(all.tooMany).toBe(true)
    const magasin = filterCategories(fr, 'magasin')
    expect(magasin.items).toHaveLength(50)
    expect(magasin.tooMany).toBe(true)
    const few = filterCategories(fr, 'boulangerie')
    expect(few.tooMany).toBe(false)
    expect(filterCategories(fr, 'magasin', { limit: 10 }).items).toHaveLength(10)
  })

  it('matches search terms after labels when the options carry them', () => {
    const options = [
      { id: 'restaurant', value: 'restaurant', label: 'Restaurant', terms: ['brasserie', 'cafe'] },
      { id: 'cafe', value: 'cafe', label: 'Café' },
    ]
    expect(ids(filterCategories(options, 'cafe').items)).toEqual(['cafe', 'restaurant'])
    expect(ids(filterCategories(options, 'brasserie').items)).toEqual(['restaurant'])
  })

  it('returns nothing for text matching no category', () => {
    expect(filterCategories(fr, 'zzzzqx')).toEqual({ items: [], tooMany: false, exact: null })
  })
})

describe('filterCategories across languages and preset terms', () => {
  const fr = listCategories('fr')
  const en = listCategories('en')
  const first = (options: readonly CategoryOption[], query: string) => filterCategories(options, query).items[0]?.id

  it('finds French names in the English interface, listed under their English label', () => {
    expect(first(en, 'boulangerie')).toBe('shop-bakery')
    expect(first(en, 'pâtisserie')).toBe('shop-pastry')
    expect(first(en, 'dentiste')).toBe('dentist')
    expect(first(en, 'plombier')).toBe('craft-plumber')
    expect(filterCategories(en, 'boulangerie').items[0]?.label).toBe('Bakery')
  })

  it('finds English names in the French interface', () => {
    expect(first(fr, 'bakery')).toBe('shop-bakery')
    expect(first(fr, 'plumber')).toBe('craft-plumber')
    expect(filterCategories(fr, 'bakery').items[0]?.label).toBe('Boulangerie')
  })

  it('ignores case and accents in either language', () => {
    expect(first(en, 'PATISSERIE')).toBe('shop-pastry')
    expect(first(en, 'Pâtisserie')).toBe('shop-pastry')
    expect(first(fr, 'BAKERY')).toBe('shop-bakery')
    expect(first(fr, 'Dentiste')).toBe('dentist')
  })

  it('finds synonyms and aliases from the iD presets, in both languages', () => {
    expect(first(fr, 'bakeshop')).toBe('shop-bakery')
    expect(first(en, 'cabinet dentaire')).toBe('dentist')
    expect(first(en, 'Cabinet Dentaire')).toBe('dentist')
  })

  it('reports the option the text names exactly, and none for a prefix', () => {
    expect(filterCategories(en, 'boulangerie').exact?.id).toBe('shop-bakery')
    expect(filterCategories(fr, 'Bakery').exact?.id).toBe('shop-bakery')
    expect(filterCategories(fr, 'bakeshop').exact?.id).toBe('shop-bakery')
    expect(filterCategories(fr, 'boulang').exact).toBeNull()
    expect(filterCategories(fr, 'boulang').items.map((o) => o.id)).toContain('shop-bakery')
  })

  it('ranks exact and prefix matches of the interface language first, then the other language, then terms', () => {
    const option = (id: string, keys: Partial<CategoryOption>): CategoryOption => ({ id, value: id, label: id, ...keys })
    const options = [
      option('ui-word-prefix', { label: 'Karaoke bar' }),
      option('other-exact', { label: 'Zed', otherLabel: 'Bar' }),
      option('ui-substring', { label: 'Minibar' }),
      option('ui-prefix', { label: 'Barber' }),
      option('term-exact', { label: 'Pub', terms: ['bar'] }),
      option('other-term-prefix', { label: 'Coffee', otherTerms: ['barista'] }),
      option('other-prefix', { label: 'Hairdresser', otherLabel: 'Barbier' }),
      option('ui-exact', { label: 'Bar' }),
      option('no-match', { label: 'Bakery', otherLabel: 'Boulangerie', terms: ['bread'] }),
    ]
    const result = filterCategories(options, 'BAR')
    expect(result.items.map((o) => o.id)).toEqual([
      'ui-exact',
      'ui-prefix',
      'other-exact',
      'other-prefix',
      'term-exact',
      'ui-word-prefix',
      'other-term-prefix',
      'ui-substring',
    ])
    expect(result.exact?.id).toBe('ui-exact')
    expect(filterCategories(options.slice(0, 3), 'bar').exact?.id).toBe('other-exact')
  })

  it('keeps the real lists ranked: English labels first in English, French labels first in French', () => {
    const enLabels = filterCategories(en, 'den').items.map((o) => o.label)
    expect(enLabels[0]).toMatch(/^den/i)
    expect(filterCategories(fr, 'pat').items[0]?.label).toMatch(/^p[aâ]t/i)
  })
})

describe('findCategory', () => {
  it('finds by id', () => {
    expect(findCategory('shop-bakery', 'fr')?.id).toBe('shop-bakery')
    expect(findCategory('restaurant', 'en')?.id).toBe('restaurant')
  })

  it('finds by label in both languages, ignoring case and accents', () => {
    expect(findCategory('Boulangerie', 'fr')?.id).toBe('shop-bakery')
    expect(findCategory('boulangérie', 'en')?.id).toBe('shop-bakery')
    expect(findCategory('Bakery', 'fr')?.id).toBe('shop-bakery')
    expect(findCategory(' DENTISTE ', 'fr')?.id).toBe('dentist')
    expect(findCategory('Dentist', 'en')?.id).toBe('dentist')
  })

  it('falls back to search terms', () => {
    // "bakeshop" is only an English search term of shop=bakery.
    expect(findCategory('bakeshop', 'fr')?.id).toBe('shop-bakery')
    expect(findCategory('Cabinet dentaire', 'en')?.id).toBe('dentist')
  })

  it('resolves what the picker matches exactly, in either interface language', () => {
    for (const lang of ['fr', 'en'] as const) {
      expect(findCategory('boulangerie', lang)?.id).toBe('shop-bakery')
      expect(findCategory('Pâtisserie', lang)?.id).toBe('shop-pastry')
      expect(findCategory('dentiste', lang)?.id).toBe('dentist')
      expect(findCategory('plombier', lang)?.id).toBe('craft-plumber')
      expect(findCategory('bakery', lang)?.id).toBe('shop-bakery')
      for (const text of ['Café', 'KENNEL', 'dents']) {
        expect(findCategory(text, lang)?.id).toBe(filterCategories(listCategories(lang), text).exact?.id)
      }
    }
  })

  it('does not resolve a mere prefix', () => {
    expect(findCategory('boulang', 'fr')).toBeNull()
  })

  it('returns null for unknown or empty text', () => {
    expect(findCategory('zzzzqx', 'fr')).toBeNull()
    expect(findCategory('   ', 'fr')).toBeNull()
  })
})
