// A QR code drawn as SVG squares from the module matrix of `qrcode` (the package the server already uses for the
// certificates' codes): no canvas, no markup string, nothing but React elements.
import { create } from 'qrcode'

export function QrCode({ text, label, size = 192 }: { text: string; label: string; size?: number }) {
  const { modules } = create(text, { errorCorrectionLevel: 'M' })
  const count = modules.size
  // A quiet zone of 4 modules around it, as readers expect.
  const side = count + 8
  const squares: string[] = []
  for (let row = 0; row < count; row++)
    for (let col = 0; col < count; col++) if (modules.get(row, col)) squares.push(`M${col + 4} ${row + 4}h1v1h-1z`)
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${side} ${side}`} shapeRendering="crispEdges">
      <rect width={side} height={side} fill="#fff" />
      <path d={squares.join('')} fill="#000" />
    </svg>
  )
}
