// Prints benchmark figures as an aligned plain-text table (numbers right-aligned).

export type TableValue = string | number | null | undefined

function formatTable(headers: string[], rows: TableValue[][]): string {
  const text = rows.map((row) => headers.map((_, i) => format(row[i])))
  const numeric = headers.map((_, i) => rows.every((row) => row[i] === null || row[i] === undefined || typeof row[i] === 'number' || /^-?[\d.]+$/.test(String(row[i]))))
  const widths = headers.map((header, i) => Math.max(header.length, ...text.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd()
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...text.map(line)].join('\n')
}

export function printTable(headers: string[], rows: TableValue[][]): void {
  console.log(formatTable(headers, rows))
}

function format(value: TableValue): string {
  if (value === null || value === undefined) return '-'
  return typeof value === 'number' ? String(value) : value
}
