// The mail room's shared pieces: cards that stack on a tablet (768 px) and sit side by side on a desktop.
import { styled } from 'goober'
import { color, radius, shadow } from '../../../../views/theme.ts'

export const Cards = styled('ul')`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 30rem), 1fr));
`

export const CardBox = styled('li')<{ $flag?: boolean }>`
  background: ${color.surface};
  border-radius: ${radius};
  box-shadow: ${shadow};
  border-left: 6px solid ${(p) => (p.$flag ? color.danger : color.primary)};
  padding: 1rem 1.25rem;
  h3 { font-size: 1.05rem; margin: 0 0 0.25rem; overflow-wrap: anywhere; }
  button { min-height: 44px; }
`

export const Badge = styled('strong')<{ $kind: 'danger' | 'ok' | 'info' }>`
  display: inline-block;
  padding: 0.15rem 0.55rem;
  border-radius: 999px;
  font-size: 0.85rem;
  background: ${(p) => (p.$kind === 'danger' ? color.dangerSoft : p.$kind === 'ok' ? '#e7f6ee' : color.primarySoft)};
  color: ${(p) => (p.$kind === 'danger' ? color.danger : p.$kind === 'ok' ? color.success : color.primaryDark)};
`

export const Actions = styled('div')`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem 0.75rem;
  align-items: center;
  margin-top: 0.5rem;
`
