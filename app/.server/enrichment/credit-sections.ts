/**
 * Credit sections of a page, followed while htmlparser2 streams it (html.ts feeds the events with its text offset).
 * A credit heading — "<h2>Hébergement</h2>", "<dt>Hébergeur</dt>", "<th>Réalisation</th>", or a label opening a
 * paragraph, "<p><strong>Conception &amp; réalisation :</strong> …" — opens a section that holds the agency's or
 * host's name, address, phone, email and SIRET however many paragraphs, <br> lines or <dd>s they take. It runs to
 * the next heading of the same or higher level (the next <dt>, <th>, or labelled paragraph for the other layouts),
 * or to the end of the element holding it: a sibling section is the business's again.
 * A publisher section ("<h2>Éditeur</h2>", "Éditeur : …") is followed the same way: html.ts decides from its text whose it is.
 */
import { CREDIT_HEADING, HOST_HEADING, PUBLISHER_HEADING, type Range, wholeLineCredit } from './credits.ts'

type Kind = 'heading' | 'term' | 'cell' | 'label'

interface Section {
  kind: Kind
  /** 1–6 for h1–h6, else 7. */
  level: number
  /** Depth of the heading element (a label's: of the paragraph holding it); the section ends when its parent closes. */
  depth: number
  start: number
  role: SectionRole
}

const LEVELS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 }
const KINDS: Record<string, Kind> = { dt: 'term', th: 'cell', strong: 'label', b: 'label' }
/** Sectioning elements: one opened beside a heading starts another section of the page. */
const SECTIONING = new Set(['section', 'article', 'aside', 'footer', 'header', 'nav', 'main', 'form'])
/** A paragraph opening with one of these labels is another part of a legal notice (publisher, contact, privacy…). */
const NEXT_LABEL =
  /^\s*(?:[ée]dit(?:eur|ion)|directeur|directrice|responsable|propri[ée]taire|contact|si[èe]ge|publication|propri[ée]t[ée]|donn[ée]es|cookies|cr[ée]dits?|conception|r[ée]alisation|h[ée]berg|d[ée]velopp|design|graphisme|photo|copyright|conditions|mentions|publisher|owner|editor|host|imprint|impressum|privacy|legal|verantwortlich|anbieter|titolare|editore|uitgever)/iu
/** The label a paragraph's text opens with, and a name after it ("Hébergeur : OVH SAS"). */
const TEXT_LABEL = /^\s*([^:：\n]{3,60}?)\s*[:：]\s*\S/u
/** A credit section longer than this is not one (a heading misread): it stops there. */
const MAX_SECTION = 3_000

/**
 * host: a credit only when it names a host (credits.ts HOST_LINE), not a gîte's lodging. publisher: the legal notice's
 * publisher, the business's unless it reads as a web agency's (credits.ts agencyPublisher).
 */
type SectionRole = 'credit' | 'host' | 'publisher'

export interface CreditSectionRange {
  range: Range
  role: SectionRole
}

export class CreditSections {
  private depth = 0
  private readonly blocks: number[] = []
  /** No visible text yet in the innermost block (a <strong> there is a label, not emphasis). */
  private blockStart = true
  private heading: { name: string; depth: number; block: number; text: string } | null = null
  private section: Section | null = null
  readonly found: CreditSectionRange[] = []

  open(name: string, at: number, isBlock: boolean) {
    const depth = ++this.depth
    const section = this.section
    if (section) {
      const level = LEVELS[name]
      const ends =
        at - section.start > MAX_SECTION ||
        (level !== undefined && level <= section.level) ||
        (section.kind === 'term' && name === 'dt') ||
        (section.kind === 'cell' && name === 'th') ||
        (section.kind === 'label' && (name === 'dt' || (KINDS[name] === 'label' && this.blockStart))) ||
        (SECTIONING.has(name) && depth <= section.depth)
      if (ends) this.end(at)
    }
    if (!this.heading && (LEVELS[name] !== undefined || name === 'dt' || name === 'th' || (KINDS[name] === 'label' && this.blockStart))) {
      this.heading = { name, depth, block: this.blocks[this.blocks.length - 1] ?? depth, text: '' }
    }
    if (isBlock) {
      this.blocks.push(depth)
      this.blockStart = true
    }
  }

  text(data: string, at: number) {
    if (!data.trim()) return
    if (this.heading) {
      if (this.heading.text.length < 100) this.heading.text += data
    } else if (this.blockStart) {
      if (this.section?.kind === 'label' && at > this.section.start && NEXT_LABEL.test(data)) this.end(at)
      // "<p>Hébergeur : OVH SAS<br>2 rue Kellermann…</p>": a paragraph that opens with a credit label, written as text.
      const label = TEXT_LABEL.exec(data)?.[1]?.trim()
      // Only when the name follows in the same text and the line is all credit (credits.ts: not "… · © Boulangerie").
      // A credit inside a publisher section ("Hébergeur : OVH" under "Éditeur") is a credit still.
      const credit = label && CREDIT_HEADING.test(label) && wholeLineCredit(data)
      if (label && (!this.section || this.section.role === 'publisher') && (credit || (!this.section && PUBLISHER_HEADING.test(label)))) {
        if (this.section) this.end(at)
        this.startSection('label', 7, this.blocks[this.blocks.length - 1] ?? this.depth, at, label)
      }
    }
    this.blockStart = false
  }

  close(name: string, at: number, isBlock: boolean) {
    const depth = this.depth--
    const heading = this.heading
    if (heading && heading.name === name && heading.depth === depth) {
      this.heading = null
      const text = heading.text.replace(/\s+/g, ' ').trim()
      // A publisher sub-heading inside a credit section ("<h2>Réalisation</h2>…<h3>Éditeur</h3>") is the credit's still.
      // A page titled "Crédits" (its <h1>) is not all the agency's: a "Crédits" page often holds the publisher too, and
      // its own sub-headings say whose each part is.
      if ((CREDIT_HEADING.test(text) && name !== 'h1') || (PUBLISHER_HEADING.test(text) && !this.section)) {
        if (this.section) this.end(at)
        const kind = KINDS[name] ?? 'heading'
        this.startSection(kind, LEVELS[name] ?? 7, kind === 'label' ? heading.block : depth, at, text)
      }
    }
    if (isBlock && this.blocks[this.blocks.length - 1] === depth) this.blocks.pop()
    if (this.section && depth < this.section.depth) this.end(at)
  }

  /** The sections still open when the page ends. */
  finish(at: number): CreditSectionRange[] {
    if (this.section) this.end(at)
    return this.found
  }

  private startSection(kind: Kind, level: number, depth: number, at: number, heading: string) {
    const role = PUBLISHER_HEADING.test(heading) ? 'publisher' : HOST_HEADING.test(heading) ? 'host' : 'credit'
    this.section = { kind, level, depth, start: at, role }
  }

  private end(at: number) {
    const section = this.section as Section
    this.section = null
    if (at > section.start) this.found.push({ range: [section.start, Math.min(at, section.start + MAX_SECTION)], role: section.role })
  }
}
