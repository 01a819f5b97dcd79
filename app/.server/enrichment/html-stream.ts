/**
 * An HTML page decoded and parsed as its bytes arrive (http.ts hands each chunk over): a homepage larger than the
 * HTML kept in memory is still read to its end, so an email or the only link to the legal notice printed after its
 * first megabytes is found. Memory stays bounded: the parser keeps text and links under their own caps (html.ts), and
 * of the HTML source only its start (`keepChars`, for the technology fingerprints' DOM rules) and its last 25 000
 * characters (Wappalyzer matches a page's start and end) are kept.
 */
import { type PageParser, type ParsedPage, pageParser } from './html.ts'

/** Bytes looked at before the charset is chosen (BOM, <meta charset>, whether the bytes are UTF-8). */
const SNIFF_BYTES = 64 * 1024
const TAIL_CHARS = 25_000

/** Charset from Content-Type, then a BOM, then <meta charset>; UTF-8 unless it clearly is not, then windows-1252. */
function decoderFor(head: Buffer, contentType: string | undefined): TextDecoder {
  let label = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1]
  if (!label) {
    if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) label = 'utf-8'
    else if (head[0] === 0xff && head[1] === 0xfe) label = 'utf-16le'
    else if (head[0] === 0xfe && head[1] === 0xff) label = 'utf-16be'
  }
  label ??= /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head.subarray(0, 2048).toString('latin1'))?.[1]
  if (label) {
    try {
      return new TextDecoder(label.toLowerCase())
    } catch {
      // An unknown label: sniffed like no label.
    }
  }
  try {
    // Streaming: a character cut at the end of the sample is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true })
    return new TextDecoder('utf-8')
  } catch {
    return new TextDecoder('windows-1252')
  }
}

export class HtmlStream {
  private decoder: TextDecoder | null = null
  private sniffed: Buffer[] = []
  private sniffedBytes = 0
  private head = ''
  private tail = ''
  private overflowed = false
  private readonly parser: PageParser

  constructor(
    pageUrl: string,
    private readonly contentType: string | undefined,
    private readonly keepChars: number,
  ) {
    this.parser = pageParser(pageUrl)
  }

  write(chunk: Buffer) {
    if (this.decoder) {
      this.text(this.decoder.decode(chunk, { stream: true }))
      return
    }
    this.sniffed.push(chunk)
    this.sniffedBytes += chunk.length
    if (this.sniffedBytes >= SNIFF_BYTES) this.start()
  }

  end(): { html: string; parsed: ParsedPage } {
    if (!this.decoder) this.start()
    this.text((this.decoder as TextDecoder).decode())
    return { html: this.overflowed ? `${this.head}\n${this.tail}` : this.head, parsed: this.parser.end() }
  }

  private start() {
    const head = Buffer.concat(this.sniffed)
    this.sniffed = []
    this.decoder = decoderFor(head, this.contentType)
    this.text(this.decoder.decode(head, { stream: true }))
  }

  private text(value: string) {
    if (!value) return
    this.parser.write(value)
    let rest = value
    const room = this.keepChars - this.head.length
    if (room > 0) {
      this.head += rest.slice(0, room)
      rest = rest.slice(room)
    }
    if (!rest) return
    this.overflowed = true
    this.tail = (this.tail + rest).slice(-TAIL_CHARS)
  }
}

/** A whole body decoded as the crawler decodes a page (tests, and bodies already read). */
export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const stream = new HtmlStream('http://localhost/', contentType, Number.MAX_SAFE_INTEGER)
  stream.write(body)
  return stream.end().html
}
