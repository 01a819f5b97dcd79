import { Fragment } from 'react'
import { cn } from '#app/utils/misc.ts'

export const inlineCodeClasses = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800 [overflow-wrap:anywhere]'

/**
 * Text with `backtick` spans shown as code: the document's descriptions and the guide's messages use the
 * Markdown convention, and nothing else of Markdown is needed, so no parser and no HTML from strings.
 */
export function InlineText({ text }: { text: string }) {
  const parts = text.split('`')
  // An odd number of backticks leaves the last one unmatched: it stays plain text.
  if (parts.length % 2 === 0) parts.splice(-2, 2, `${parts.at(-2)}\`${parts.at(-1)}`)
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className={inlineCodeClasses}>
            {part}
          </code>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  )
}

/** Paragraphs split on blank lines, each with its inline code. */
export function Paragraphs({ text, className }: { text: string; className?: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.trim())
        .filter(Boolean)
        .map((paragraph, index) => (
          <p key={index} className={cn('text-sm leading-6 text-slate-700', className)}>
            <InlineText text={paragraph} />
          </p>
        ))}
    </>
  )
}
