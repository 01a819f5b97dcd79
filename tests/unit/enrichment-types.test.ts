import { describe, expect, it } from 'vitest'
import { exportColumns } from '#app/.server/exports/download/columns.ts'
import { ENRICHED_LEAD_COLUMNS, ENRICHMENT, ENRICHMENT_TABLE, STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'
import { applyToggleRules, ENRICHMENT_TYPES, NO_ENRICHMENT, STATUS_COLUMN, toggleStates, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'

const ALL: EnrichmentOptions = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }

function lookup(messages: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), messages)
}

describe('the table of enrichment types', () => {
  it('keeps the option keys users submit, in toggle order', () => {
    expect(ENRICHMENT_TYPES).toEqual(['phone', 'website', 'email', 'technologies', 'social', 'admin_fr_info'])
    expect(Object.keys(NO_ENRICHMENT)).toEqual([...ENRICHMENT_TYPES])
  })

  it('names each type’s task, status column and lead columns (social is social_media in the database)', () => {
    expect(ENRICHMENT.social).toMatchObject({ task: 'social_media', statusColumn: 'social_media_status', leadColumns: ['social_media'] })
    expect(STATUS_COLUMN).toEqual({
      phone: 'phone_status',
      website: 'website_status',
      email: 'email_status',
      technologies: 'technologies_status',
      social: 'social_media_status',
      admin_fr_info: 'admin_fr_info_status',
    })
    expect(STATUS_COLUMNS).toHaveLength(ENRICHMENT_TABLE.length)
    expect(new Set(ENRICHMENT_TABLE.map((entry) => entry.task)).size).toBe(ENRICHMENT_TABLE.length)
    // <task>_sources: a type's provenance column (leads.<task>_sources), written with its values.
    expect(ENRICHED_LEAD_COLUMNS).toEqual(['phone', 'phone_sources', 'website', 'email', 'email_sources', 'technologies', 'social_media', 'admin_fr_info'])
  })

  it('lists what a type needs before it, so one pass of the rules settles them', () => {
    for (const [index, entry] of ENRICHMENT_TABLE.entries()) {
      if (!entry.needs) continue
      expect(ENRICHMENT_TYPES.indexOf(entry.needs)).toBeLessThan(index)
    }
    expect(ENRICHMENT.technologies.needs).toBe('website')
    expect(ENRICHMENT_TABLE.filter((entry) => entry.franceOnly).map((entry) => entry.key)).toEqual(['admin_fr_info'])
  })

  it('has its label and hint texts in both locales', () => {
    for (const entry of ENRICHMENT_TABLE) {
      for (const key of [entry.labelKey, entry.hintKey].filter((key): key is NonNullable<typeof key> => key !== null)) {
        expect(typeof lookup(en, key), `en ${key}`).toBe('string')
        expect(typeof lookup(fr, key), `fr ${key}`).toBe('string')
      }
    }
  })
})

describe('toggle rules from the table', () => {
  it('switches off a type whose need is off, and France-only types outside France', () => {
    expect(applyToggleRules(ALL, { france: true })).toEqual(ALL)
    expect(applyToggleRules({ ...ALL, website: false }, { france: true })).toEqual({ ...ALL, website: false, technologies: false })
    expect(applyToggleRules(ALL, { france: false })).toEqual({ ...ALL, admin_fr_info: false })
  })

  it('keeps already-enriched types on', () => {
    const alreadyEnriched = { ...NO_ENRICHMENT, website: true, technologies: true }
    expect(applyToggleRules(NO_ENRICHMENT, { france: false, alreadyEnriched })).toEqual(alreadyEnriched)
  })

  it('shows France-only toggles only in France, locks a type whose need is off, and carries the labels', () => {
    expect(toggleStates(NO_ENRICHMENT, { france: false }).map((toggle) => toggle.type)).toEqual(['phone', 'website', 'email', 'technologies', 'social'])
    const states = toggleStates({ ...NO_ENRICHMENT, email: true }, { france: true, alreadyEnriched: { ...NO_ENRICHMENT, email: true } })
    expect(states.map((toggle) => toggle.type)).toEqual([...ENRICHMENT_TYPES])
    expect(states.find((toggle) => toggle.type === 'technologies')).toMatchObject({ disabled: true, hintKey: 'exports.modal.technologiesHint' })
    expect(states.find((toggle) => toggle.type === 'email')).toMatchObject({ checked: true, disabled: true, alreadyEnriched: true, labelKey: 'exports.options.email' })
    expect(toggleStates({ ...NO_ENRICHMENT, website: true }, { france: true }).find((toggle) => toggle.type === 'technologies')?.disabled).toBe(false)
  })
})

describe('download columns from the table', () => {
  it('add one block per chosen type, in table order, each ending with its status', () => {
    const keys = exportColumns({ ...NO_ENRICHMENT, admin_fr_info: true, social: true, phone: true }, 'en').map((column) => column.key)
    // Between the last lead field and the provenance columns.
    const blocks = keys.slice(keys.indexOf('description') + 1, keys.indexOf('source'))
    expect(blocks).toEqual([
      'phone_type',
      'other_phones',
      'phone_status',
      'facebook',
      'linkedin',
      'twitter',
      'instagram',
      'tiktok',
      'social_media_status',
      'siren',
      'siret',
      'legal_name',
      'naf_code',
      'legal_category',
      'headcount_band',
      'creation_date',
      'match_confidence',
      'naf_label',
      'legal_form',
      'headcount',
      'administrative_state',
      'head_office_address',
      'directors',
      'matched_by',
      'id_source_page',
      'risk',
      'risk_date',
      'risk_tribunal',
      'risk_announcement',
      'admin_fr_info_status',
    ])
  })

  it('write headers and statuses in the file language', () => {
    const [status] = exportColumns({ ...NO_ENRICHMENT, email: true }, 'fr').filter((column) => column.key.startsWith('email'))
    expect(status?.header).toBe('E-mails')
    const columns = exportColumns({ ...NO_ENRICHMENT, email: true }, 'fr')
    const emailStatus = columns.find((column) => column.key === 'email_status')
    expect(emailStatus?.header).toBe('Statut enrichissement e-mail')
    expect(emailStatus?.value({ email_status: 'not_found' } as never)).toBe('Non trouvé')
    expect(columns.find((column) => column.key === 'email')?.value({ email: ['a@b.fr', 'c@d.fr'] } as never)).toBe('a@b.fr; c@d.fr')
  })
})
