// What every bench script writes the same way into docs/BENCHMARKS.md: the machine it ran on, and its own section
// (« ## <title> »), replaced in place, the others left as they are.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { availableParallelism, cpus, totalmem } from 'node:os'
import { join } from 'node:path'

const FILE = join(import.meta.dirname, '..', 'docs', 'BENCHMARKS.md')

/** « 2 cœurs (`nproc`), 23.5 Gio de mémoire, AMD EPYC…, Node v20… », then `extra` (browser, Lighthouse, load…). */
export function machineDescription(...extra: string[]): string {
  return [
    `${availableParallelism()} cœurs (\`nproc\`)`,
    `${(totalmem() / 2 ** 30).toFixed(1)} Gio de mémoire`,
    cpus()[0]?.model ?? 'processeur inconnu',
    `Node ${process.version}`,
    ...extra,
  ].join(', ')
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * Replaces the section « ## `title` » (up to the next « ## ») with `section`, which starts with that heading. A file
 * without it gets it at the end, or just before the section headed `before` when there is one.
 */
export async function saveSection(title: string, section: string, { before }: { before?: string } = {}): Promise<void> {
  const document = existsSync(FILE) ? await readFile(FILE, 'utf8') : '# Mesures de performance\n'
  const start = document.indexOf(`\n## ${title}\n`)
  let head: string
  let tail: string
  if (start >= 0) {
    const end = document.indexOf('\n## ', start + 1)
    head = document.slice(0, start)
    tail = end < 0 ? '' : document.slice(end)
  } else {
    const next = before === undefined ? -1 : document.indexOf(`\n## ${before}`)
    head = next < 0 ? document : document.slice(0, next)
    tail = next < 0 ? '' : document.slice(next)
  }
  await writeFile(FILE, `${head.trimEnd()}\n\n${section.trimEnd()}\n${tail}`)
}
