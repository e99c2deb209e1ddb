// Lines of 140 characters at most (part of `npm run lint`). Biome's formatter keeps the code within that width but
// leaves comments and string literals as they are: this fails on any comment past it, and on any line that a string
// literal alone does not explain. A French message or a test's name stays whole on its line, so that a search for
// it finds it.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const WIDTH = 140
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mjs', '*.cjs', '*.js'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean)
const literal = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|\/\^(?:[^/\\]|\\.)*\/[a-z]*/g

const problems = []
for (const file of files) {
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    continue // deleted in the work tree
  }
  text.split('\n').forEach((line, index) => {
    const length = [...line].length
    if (length <= WIDTH) return
    // A template literal may hold others: its extent is from the first backtick to the last.
    const template = line.includes('`') ? line.lastIndexOf('`') - line.indexOf('`') + 1 : 0
    const longest = Math.max(template, ...[...line.matchAll(literal)].map((m) => [...m[0]].length))
    if (/^\s*(\/\/|\/\*|\*)/.test(line) || length - longest + 2 > WIDTH) problems.push(`${file}:${index + 1}: ${length} caractères`)
  })
}
if (problems.length) {
  console.error(`Lignes de plus de ${WIDTH} caractères (un commentaire, ou du code qu’aucun texte entre guillemets n’explique) :`)
  for (const problem of problems) console.error(`  ${problem}`)
  process.exit(1)
}
console.log(`Aucune ligne de plus de ${WIDTH} caractères hors d’un texte entre guillemets (${files.length} fichiers).`)
