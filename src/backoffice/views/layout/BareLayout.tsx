// The back office's pages without its shell: sign-in and enrolment. The portal's design language: the brand band,
// one card, the title focusable by script.
import { styled } from 'goober'
import { type ReactNode, useEffect } from 'react'
import { color, radius, shadow } from '../../../views/theme.ts'
import { BRAND_NAME } from '../../wiring/config.ts'

const Page = styled('div')`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  align-items: center;
  padding: 2rem 1rem;
  background: linear-gradient(180deg, ${color.primaryDark} 0, ${color.primaryDark} 14rem, ${color.background} 14rem);
`

const Brand = styled('header')`
  margin: 0 0 1.5rem;
  color: #fff;
  font-size: 1.5rem;
  font-weight: 700;
  span { font-weight: 400; opacity: 0.85; }
`

const Panel = styled('main')<{ $wide: boolean }>`
  width: 100%;
  max-width: ${(p) => (p.$wide ? '44rem' : '28rem')};
  background: ${color.surface};
  border-radius: ${radius};
  box-shadow: ${shadow};
  padding: 1.75rem 1.5rem;
  h1 { font-size: 1.5rem; }
`

export function BareLayout({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  useEffect(() => {
    document.title = `${title} · Back-office ${BRAND_NAME}`
  }, [title])
  return (
    <Page>
      <Brand>
        {BRAND_NAME} <span>· Back-office</span>
      </Brand>
      <Panel $wide={wide}>
        <h1 id="titre" tabIndex={-1}>
          {title}
        </h1>
        {children}
      </Panel>
    </Page>
  )
}
