// Design tokens. Colours meet WCAG AA contrast on their usual backgrounds.
export const color = {
  primary: '#1d3b6a',
  primaryDark: '#142a4d',
  primarySoft: '#e8eef8',
  accent: '#f2b632',
  accentSoft: '#fff6dd',
  text: '#1f2937',
  muted: '#4b5563',
  border: '#d4dae3',
  background: '#f5f7fb',
  surface: '#ffffff',
  danger: '#b42318',
  dangerSoft: '#fdecea',
  success: '#067647',
  focus: '#2563eb',
}

export const radius = '10px'
export const shadow = '0 1px 2px rgba(16, 24, 40, 0.06), 0 4px 12px rgba(16, 24, 40, 0.08)'

/** Desktop from this width on: the sidebar shows its sub-menus and the header its picker. */
export const DESKTOP_MIN_WIDTH = 900
/** The signed-in pages' header bar (at least; layout/Header.tsx); a desktop's toasts show below it. */
export const HEADER_HEIGHT_PX = 64
export const mq = {
  desktop: `@media (min-width: ${DESKTOP_MIN_WIDTH}px)`,
  mobile: `@media (max-width: ${DESKTOP_MIN_WIDTH - 1}px)`,
}
