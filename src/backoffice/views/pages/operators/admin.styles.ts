// The Administration sections' shared pieces: a table that scrolls sideways on a tablet rather than squeezing.
import { styled } from 'goober'
import { color, radius, shadow } from '../../../../views/theme.ts'

export const Panel = styled('section')`
  background: ${color.surface};
  border-radius: ${radius};
  box-shadow: ${shadow};
  padding: 1.25rem 1.25rem 1.5rem;
  margin-bottom: 1.5rem;
  h2 { font-size: 1.2rem; }
`

export const TableBox = styled('div')`
  overflow-x: auto;
  table { width: 100%; border-collapse: collapse; font-size: 0.95rem; }
  th, td { text-align: left; padding: 0.55rem 0.6rem; border-bottom: 1px solid ${color.border}; vertical-align: top; }
  th { color: ${color.muted}; font-weight: 600; white-space: nowrap; }
  td button { min-height: 36px; padding: 0.3rem 0.7rem; }
`

export const Inline = styled('div')`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem 1rem;
  align-items: flex-end;
  > * { margin: 0; }
`

export const Muted = styled('span')`
  color: ${color.muted};
`

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' })
/** « 20/11/2026 11:00 », Paris time. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso))

/** A link that looks like a primary button (« Nouveau client »: a page, not an action). */
export const ButtonLink = styled('span')`
  a {
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    padding: 0.6rem 1.1rem;
    border-radius: ${radius};
    background: ${color.primary};
    color: #fff;
    font-weight: 600;
    text-decoration: none;
  }
  a:hover { background: ${color.primaryDark}; }
`
