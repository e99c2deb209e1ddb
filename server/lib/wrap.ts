// Words gathered into lines, each as long as the caller's measure allows: the PDFs' text (pdf-lib's fonts) and the
// notice drawn on a letter's page image (the canvas) wrap the same way.

/** `text`'s words in lines for which `fits` holds; a word too long for any line stands alone on its own. */
export function wrapWords(text: string, fits: (line: string) => boolean): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word
    if (line && !fits(next)) {
      lines.push(line)
      line = word
    } else {
      line = next
    }
  }
  if (line) lines.push(line)
  return lines
}
