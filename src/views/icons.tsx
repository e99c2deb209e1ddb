// Inline line icons (24×24, stroke): small, themable, no request. Decorative unless labelled.
import type { SVGProps } from 'react'

const paths = {
  dashboard: 'M3 13h8V3H3zM13 21h8V11h-8zM3 21h8v-6H3zM13 3v6h8V3z',
  mail: 'M3 6h18v12H3zM3 7l9 6 9-6',
  subscription: 'M4 4h16v16H4zM8 9h8M8 13h8M8 17h5',
  card: 'M2 6h20v12H2zM2 10h20M6 15h4',
  invoice: 'M6 2h9l5 5v15H6zM14 2v6h6M9 13h7M9 17h7',
  legal: 'M12 3v18M5 7h14M7 7l-3 7a3 3 0 0 0 6 0zM17 7l-3 7a3 3 0 0 0 6 0zM8 21h8',
  formalities: 'M9 4h6v3H9zM7 5H5v16h14V5h-2M9 12l2 2 4-4',
  person: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0',
  company: 'M3 21h18M5 21V7l7-4 7 4v14M9 10h2M13 10h2M9 14h2M13 14h2M10 21v-3h4v3',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 3.5a4 4 0 0 1 0 7M18 14a6 6 0 0 1 4 7',
  alert: 'M12 3l10 18H2zM12 10v4M12 17.5v.5',
  bell: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 21h4',
  messages: 'M4 4h16v12H9l-5 4zM8 9h8M8 12h5',
  back: 'M15 5l-7 7 7 7',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  menu: 'M4 6h16M4 12h16M4 18h16',
  close: 'M6 6l12 12M18 6L6 18',
  chevronLeft: 'M15 5l-7 7 7 7',
  chevronRight: 'M9 5l7 7-7 7',
  calendar: 'M4 5h16v16H4zM4 9h16M8 3v4M16 3v4',
  meeting: 'M3 20h18M6 20v-6h12v6M9 14V9h6v5M12 4v5',
  accounting: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
  upload: 'M12 16V4M7 9l5-5 5 5M4 20h16',
  play: 'M8 5l11 7-11 7z',
  document: 'M6 2h9l5 5v15H6zM14 2v6h6',
} as const

export type IconName = keyof typeof paths

export function Icon({ name, label, size = 20, ...rest }: { name: IconName; label?: string; size?: number } & SVGProps<SVGSVGElement>) {
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: named by aria-label (role img) when it means something, else aria-hidden
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      focusable="false"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      {...rest}
    >
      <path d={paths[name]} />
    </svg>
  )
}
