// A small, strict iCalendar reader for the tests: it checks what calendar apps rely on (CRLF
// everywhere, folded lines of at most 75 octets, BEGIN/END balanced) and returns the components.
import * as assert from 'uvu/assert'

export interface IcsProperty {
  name: string
  params: Record<string, string>
  value: string
}

export interface IcsComponent {
  name: string
  properties: IcsProperty[]
  components: IcsComponent[]
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The physical lines, each checked: CRLF endings, at most 75 octets, no half of a character. */
export function physicalLines(text: string): string[] {
  assert.ok(text.endsWith('\r\n'), 'the file ends with CRLF')
  assert.not.match(text, /\r(?!\n)|(?<!\r)\n/, 'every line break is CRLF')
  const lines = text.slice(0, -2).split('\r\n')
  for (const line of lines) {
    assert.ok(Buffer.byteLength(line, 'utf8') <= 75, `over 75 octets: ${JSON.stringify(line)}`)
    assert.not.match(line, LONE_SURROGATE, `a character split in two: ${JSON.stringify(line)}`)
  }
  return lines
}

/** RFC 5545 3.1: a line starting with a space or a tab continues the previous one. */
export function unfold(lines: string[]): string[] {
  const logical: string[] = []
  for (const line of lines) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      assert.ok(logical.length > 0, 'a continuation line comes first')
      logical[logical.length - 1] += line.slice(1)
    } else logical.push(line)
  }
  return logical
}

function parseProperty(line: string): IcsProperty {
  const colon = line.indexOf(':')
  assert.ok(colon > 0, `a property has a name and a value: ${JSON.stringify(line)}`)
  const [name, ...params] = line.slice(0, colon).split(';')
  assert.match(name!, /^[A-Z][A-Z0-9-]*$/, `property name ${name}`)
  return {
    name: name!,
    params: Object.fromEntries(params.map((p) => p.split('=') as [string, string])),
    value: line.slice(colon + 1),
  }
}

/** The single VCALENDAR of the file, its components nested; throws on any structural defect. */
export function parseIcs(text: string): IcsComponent {
  const stack: IcsComponent[] = []
  let root: IcsComponent | undefined
  for (const line of unfold(physicalLines(text))) {
    const property = parseProperty(line)
    if (property.name === 'BEGIN') {
      assert.is(root, undefined, 'nothing after the calendar ends')
      const component: IcsComponent = { name: property.value, properties: [], components: [] }
      stack.at(-1)?.components.push(component)
      stack.push(component)
    } else if (property.name === 'END') {
      const open = stack.pop()
      assert.is(open?.name, property.value, `END:${property.value} closes ${open?.name}`)
      if (stack.length === 0) root = open
    } else {
      assert.ok(stack.length > 0, `${property.name} outside any component`)
      stack.at(-1)!.properties.push(property)
    }
  }
  assert.is(stack.length, 0, 'every BEGIN has its END')
  assert.is(root?.name, 'VCALENDAR')
  return root!
}

/** The values of a property by name. */
export const values = (component: IcsComponent, name: string) => component.properties.filter((p) => p.name === name).map((p) => p.value)

/** RFC 5545 3.3.11, the other way. */
export function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c))
}
