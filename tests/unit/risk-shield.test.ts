import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readBodaccRecord, riskStatus, type BodaccAnnouncement } from '#app/domain/registry-risk.ts'
import { leadRisk, riskExclusion } from '#app/domain/risk-shield.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/bodacc')

function riskOf(fixture: string) {
  const data = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${fixture}.json`), 'utf8'))
  const announcements = (data.records as unknown[]).map(readBodaccRecord).filter((a): a is BodaccAnnouncement => a !== null)
  return riskStatus(announcements, { today: data.today, ...data.entity })
}

const BOTH = { excludeInsolvent: true, excludeRadiated: true }

describe('riskExclusion', () => {
  it.each([
    ['liquidation', BOTH, 'risk_insolvency'],
    ['redressement-open', BOTH, 'risk_insolvency'],
    ['sauvegarde', { excludeInsolvent: true, excludeRadiated: false }, 'risk_insolvency'],
    ['liquidation', { excludeInsolvent: false, excludeRadiated: true }, null],
    ['radiation-company-active', BOTH, 'risk_radiated'],
    ['radiation-company-active', { excludeInsolvent: true, excludeRadiated: false }, null],
    ['redressement-then-cloture', BOTH, null],
    ['annulation', BOTH, null],
    ['expired-procedure', BOTH, null],
    ['radiation-sole-trader-active', BOTH, null],
  ])('%s with %o → %s', (fixture, filters, expected) => {
    expect(riskExclusion(riskOf(fixture), filters)).toBe(expected)
  })

  it('no known risk leaves nothing out', () => {
    expect(riskExclusion(undefined, BOTH)).toBeNull()
  })
})

describe('leadRisk', () => {
  it('names the deciding judgment: its date, tribunal and BODACC link', () => {
    const risk = riskOf('liquidation')
    expect(leadRisk(risk)).toEqual({
      status: 'liquidation',
      date: risk.announcement?.judgment?.date,
      tribunal: 'TRIBUNAL DE COMMERCE DE BORDEAUX',
      url: 'https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:A202600811203',
      announcementId: 'A202600811203',
    })
  })

  it('a radiation of a company dates from its publication (legal persons carry no date)', () => {
    const risk = riskOf('radiation-company-active')
    expect(leadRisk(risk)).toMatchObject({ status: 'radiee', date: risk.announcement?.publishedOn })
  })

  it('nothing open: no risk on the lead', () => {
    expect(leadRisk(riskOf('redressement-then-cloture'))).toBeNull()
  })
})
