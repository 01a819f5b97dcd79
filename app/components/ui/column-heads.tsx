/** A table's header row of plain column names, all drawn alike (the tables with special columns write their own). */
export function ColumnHeads({ labels, className }: { labels: string[]; className: string }) {
  return (
    <tr>
      {labels.map((label) => (
        <th key={label} scope="col" className={className}>
          {label}
        </th>
      ))}
    </tr>
  )
}
