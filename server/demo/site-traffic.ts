/**
 * What the demo websites server saw, per demo site: every site shares the server's host:port, so the crawler's
 * per-host politeness cap cannot show whether one *site* was hammered. The server counts requests in flight per
 * site and keeps the highest, which the enrichment benchmark prints (GET /_demo/traffic).
 */

export interface SiteTrafficReport {
  requests: number
  /** Highest number of requests in flight to one site at once (the politeness figure). */
  peakPerSite: number
  /** Highest number of requests in flight to the whole server at once. */
  peakTotal: number
  /** Requests in flight now (0 once every client has had its answer or given up). */
  inFlight: number
  /** Answers by kind: hang (never answered), not_found (homepage 404), redirect (homepage moved), ok. */
  answers: Record<string, number>
}

export class SiteTraffic {
  /** Sites with requests in flight only: memory follows the traffic, not the sites ever seen. */
  private readonly inFlight = new Map<string, number>()
  private total = 0
  private report: Omit<SiteTrafficReport, 'inFlight'> = { requests: 0, peakPerSite: 0, peakTotal: 0, answers: {} }

  /** A request to `site` starts; the function returned ends it (answered or abandoned). */
  begin(site: string): () => void {
    const now = (this.inFlight.get(site) ?? 0) + 1
    this.inFlight.set(site, now)
    this.total++
    this.report.requests++
    this.report.peakPerSite = Math.max(this.report.peakPerSite, now)
    this.report.peakTotal = Math.max(this.report.peakTotal, this.total)
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.total--
      const left = (this.inFlight.get(site) ?? 1) - 1
      if (left > 0) this.inFlight.set(site, left)
      else this.inFlight.delete(site)
    }
  }

  answered(kind: string): void {
    this.report.answers[kind] = (this.report.answers[kind] ?? 0) + 1
  }

  snapshot(): SiteTrafficReport {
    return { ...this.report, inFlight: this.total, answers: { ...this.report.answers } }
  }
}
