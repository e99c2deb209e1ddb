// The sRGB colour profile (IEC 61966-2-1) as an ICC v2 display profile, the output intent a PDF/A document names for its
// colours. No package ships one, so it is written here from the standard's published values: the D50-adapted
// primaries of the ICC's own sRGB profile and the sRGB transfer curve sampled at 1024 points.

const D50 = [0.9642, 1, 0.8249]
const PRIMARIES = {
  rXYZ: [0.436075, 0.222504, 0.013932],
  gXYZ: [0.385065, 0.716879, 0.097105],
  bXYZ: [0.14308, 0.060617, 0.714173],
}

const s15Fixed16 = (value: number) => Math.round(value * 65536)

function xyzTag(values: number[]): Buffer {
  const tag = Buffer.alloc(20)
  tag.write('XYZ ', 0, 'latin1')
  values.forEach((value, i) => tag.writeInt32BE(s15Fixed16(value), 8 + i * 4))
  return tag
}

function curveTag(): Buffer {
  const points = 1024
  const tag = Buffer.alloc(12 + points * 2)
  tag.write('curv', 0, 'latin1')
  tag.writeUInt32BE(points, 8)
  for (let i = 0; i < points; i++) {
    const v = i / (points - 1)
    const linear = v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
    tag.writeUInt16BE(Math.round(linear * 65535), 12 + i * 2)
  }
  return tag
}

function descriptionTag(text: string): Buffer {
  // textDescriptionType: the ASCII description, then empty Unicode and ScriptCode parts (67 bytes for the latter).
  const tag = Buffer.alloc(12 + text.length + 1 + 4 + 4 + 2 + 1 + 67)
  tag.write('desc', 0, 'latin1')
  tag.writeUInt32BE(text.length + 1, 8)
  tag.write(text, 12, 'latin1')
  return tag
}

function textTag(text: string): Buffer {
  const tag = Buffer.alloc(8 + text.length + 1)
  tag.write('text', 0, 'latin1')
  tag.write(text, 8, 'latin1')
  return tag
}

const pad4 = (buffer: Buffer) => (buffer.length % 4 ? Buffer.concat([buffer, Buffer.alloc(4 - (buffer.length % 4))]) : buffer)

let profile: Buffer | undefined

/** The profile's bytes (built once per process). */
export function srgbProfile(): Buffer {
  if (profile) return profile
  const curve = curveTag()
  const tags: [string, Buffer][] = [
    ['desc', descriptionTag('sRGB IEC61966-2.1')],
    ['cprt', textTag('No copyright, use freely')],
    ['wtpt', xyzTag(D50)],
    ['rXYZ', xyzTag(PRIMARIES.rXYZ)],
    ['gXYZ', xyzTag(PRIMARIES.gXYZ)],
    ['bXYZ', xyzTag(PRIMARIES.bXYZ)],
    ['rTRC', curve],
    ['gTRC', curve],
    ['bTRC', curve],
  ]
  const tableSize = 4 + tags.length * 12
  const table = Buffer.alloc(tableSize)
  table.writeUInt32BE(tags.length, 0)
  const bodies: Buffer[] = []
  let offset = 128 + tableSize
  const placed = new Map<Buffer, number>()
  tags.forEach(([signature, body], i) => {
    // The three curves are one: stored once, pointed at three times.
    let at = placed.get(body)
    if (at === undefined) {
      at = offset
      placed.set(body, at)
      const padded = pad4(body)
      bodies.push(padded)
      offset += padded.length
    }
    table.write(signature, 4 + i * 12, 'latin1')
    table.writeUInt32BE(at, 8 + i * 12)
    table.writeUInt32BE(body.length, 12 + i * 12)
  })
  const header = Buffer.alloc(128)
  header.writeUInt32BE(offset, 0)
  header.writeUInt32BE(0x02100000, 8)
  header.write('mntr', 12, 'latin1')
  header.write('RGB ', 16, 'latin1')
  header.write('XYZ ', 20, 'latin1')
  ;[2026, 1, 1, 0, 0, 0].forEach((part, i) => header.writeUInt16BE(part, 24 + i * 2))
  header.write('acsp', 36, 'latin1')
  D50.forEach((value, i) => header.writeInt32BE(s15Fixed16(value), 68 + i * 4))
  profile = Buffer.concat([header, table, ...bodies])
  return profile
}
