// The sidebar's styles (spec §2: collapsible on a desktop, a drawer on a phone).
import { styled } from 'goober'
import { color, mq } from '../theme.ts'

export const Aside = styled('aside')<{ $expanded: boolean; $open: boolean }>`
  display: flex;
  flex-direction: column;
  background: ${color.primaryDark};
  color: #e8eef8;
  overflow-y: auto;
  z-index: 60;
  a, button { color: inherit; }
  ${mq.mobile} {
    position: fixed;
    inset: 0 auto 0 0;
    width: min(85vw, 300px);
    transform: translateX(${(p) => (p.$open ? '0' : '-100%')});
    visibility: ${(p) => (p.$open ? 'visible' : 'hidden')};
    transition: transform 0.2s ease, visibility 0.2s;
  }
  ${mq.desktop} {
    position: sticky;
    top: 0;
    height: 100vh;
    width: ${(p) => (p.$expanded ? '272px' : '76px')};
    transition: width 0.2s ease;
  }
`

export const Top = styled('div')`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem;
  padding: 0.75rem 0.75rem 0.75rem 1rem;
  min-height: 64px;
  font-weight: 700;
  font-size: 1.15rem;
`

export const Toggle = styled('button')`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  border: none;
  border-radius: 50%;
  background: transparent;
  cursor: pointer;
  &:hover { background: rgba(255, 255, 255, 0.12); }
`

export const Nav = styled('nav')`
  ul { list-style: none; margin: 0; padding: 0; }
  h2 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.08em; color: #b9c6dc; margin: 1.25rem 1rem 0.5rem; }
`

export const ItemLink = styled('a')<{ $active: boolean; $sub?: boolean }>`
  display: flex;
  align-items: center;
  gap: 0.75rem;
  min-height: 44px;
  padding: 0.5rem 1rem 0.5rem ${(p) => (p.$sub ? '3.25rem' : '1.1rem')};
  text-decoration: none;
  border-left: 4px solid ${(p) => (p.$active ? color.accent : 'transparent')};
  background: ${(p) => (p.$active ? 'rgba(255, 255, 255, 0.1)' : 'transparent')};
  font-weight: ${(p) => (p.$active ? 700 : 400)};
  font-size: ${(p) => (p.$sub ? '0.95rem' : '1rem')};
  &:hover { background: rgba(255, 255, 255, 0.08); }
`

export const Actions = styled('div')`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  padding: 1rem;
  margin-top: auto;
`

const actionStyles = `
  display: flex;
  align-items: center;
  gap: 0.6rem;
  min-height: 44px;
  padding: 0.5rem 0.75rem;
  border: 1px solid rgba(255, 255, 255, 0.35);
  border-radius: 10px;
  background: transparent;
  font-weight: 600;
  cursor: pointer;
  text-align: left;
  text-decoration: none;
  &:hover { background: rgba(255, 255, 255, 0.08); }
`
export const ActionButton = styled('button')`${actionStyles}`
export const ActionLink = styled('a')`${actionStyles}`

export const LegalLinks = styled('nav')`
  padding: 0 1rem 0.5rem;
  font-size: 0.8rem;
  ul { margin: 0; padding: 0; list-style: none; }
  a { display: inline-block; padding: 0.2rem 0; color: #dbe3f0; }
`

export const Copyright = styled('p')`
  margin: 0;
  padding: 0 1rem 1rem;
  font-size: 0.8rem;
  color: #b9c6dc;
`
