const NETWORKS = {
  facebook: { label: 'Facebook', path: 'M14 8h3V4h-3a4 4 0 0 0-4 4v2H8v4h2v6h4v-6h3l1-4h-4V8z' },
  linkedin: { label: 'LinkedIn', path: 'M6 9v10M6 5v.01M10 19v-6a3 3 0 0 1 6 0v6M10 10v9' },
  twitter: { label: 'X (Twitter)', path: 'M4 4l16 16M20 4L4 20' },
  instagram: { label: 'Instagram', path: 'M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm5.5-1.5v.01' },
  tiktok: { label: 'TikTok', path: 'M14 3v11a4 4 0 1 1-4-4M14 3c0 3 2 5 5 5' },
} as const

/** Icons for the five networks the spec names; other networks (e.g. YouTube) are kept in exports only. */
export function SocialIcons({ links }: { links: Record<string, string> }) {
  const entries = (Object.keys(NETWORKS) as Array<keyof typeof NETWORKS>).filter((network) => links[network])
  if (!entries.length) return <span className="text-slate-500">—</span>
  return (
    <ul className="flex gap-1.5">
      {entries.map((network) => (
        <li key={network}>
          <a
            href={links[network]}
            target="_blank"
            rel="noopener noreferrer nofollow"
            aria-label={NETWORKS[network].label}
            title={NETWORKS[network].label}
            className="flex size-7 items-center justify-center rounded-md text-slate-600 ring-1 ring-slate-200 ring-inset hover:bg-slate-50 hover:text-brand-700"
          >
            <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" className="size-4" aria-hidden="true">
              <path d={NETWORKS[network].path} />
            </svg>
          </a>
        </li>
      ))}
    </ul>
  )
}
