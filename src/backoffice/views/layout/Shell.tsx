// The back office's shell: the header (who is signed in, with which roles, « Se déconnecter »), the menu of the pages
// the operator's roles open (routes.ts), and the page of the path, or « Accès réservé » for a page of another role.
// Desktop first (1280 px): the menu on the left; on a tablet (768 px) it runs across, under the header.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import { Suspense, useEffect } from 'react'
import { Link, useLocation } from 'wouter'
import type { OperatorMe } from '../../../../server/contract/operators.ts'
import { ROLE_LABELS, rolesText } from '../../../../server/contract/rules/backoffice.ts'
import { Button, CodeLoading } from '../../../views/components/ui.tsx'
import { color } from '../../../views/theme.ts'
import { BRAND_NAME } from '../../wiring/config.ts'
import { useBackOffice } from '../context.tsx'
import { menuFor, opens, pageFor } from '../routes.ts'

/** From this width on the menu is a column on the left. */
const WIDE = '@media (min-width: 1024px)'

const Frame = styled('div')`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
`

const Bar = styled('header')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.75rem 1.5rem;
  padding: 0.75rem 1.5rem;
  background: ${color.primaryDark};
  color: #fff;
  strong { font-size: 1.15rem; }
  p { margin: 0 0 0 auto; }
  button { min-height: 40px; }
`

const Body = styled('div')`
  flex: 1;
  display: flex;
  flex-direction: column;
  ${WIDE} { flex-direction: row; }
`

const Menu = styled('nav')`
  background: ${color.surface};
  border-bottom: 1px solid ${color.border};
  ul { list-style: none; margin: 0; padding: 0.5rem 1rem; display: flex; flex-wrap: wrap; gap: 0.25rem; }
  a {
    display: block;
    padding: 0.6rem 0.9rem;
    border-radius: 8px;
    color: ${color.text};
    text-decoration: none;
    font-weight: 600;
  }
  a:hover { background: ${color.primarySoft}; }
  a[aria-current='page'] { background: ${color.primary}; color: #fff; }
  ${WIDE} {
    width: 15rem;
    flex: none;
    border-bottom: 0;
    border-right: 1px solid ${color.border};
    ul { flex-direction: column; padding: 1rem 0.75rem; }
  }
`

const Content = styled('main')`
  flex: 1;
  min-width: 0;
  padding: 1.25rem 1rem;
  ${WIDE} { padding: 1.75rem 2rem; }
  > h1 { font-size: 1.6rem; }
`

const SkipLink = styled('a')`
  position: absolute;
  left: -999px;
  top: 0;
  z-index: 200;
  padding: 0.75rem 1rem;
  background: ${color.surface};
  &:focus { left: 0.5rem; top: 0.5rem; }
`

export function Shell({ operator }: { operator: OperatorMe }) {
  const { session } = useBackOffice()
  const [path] = useLocation()
  const signingOut = useSelector(session, (s) => s.matches('signingOut'))
  const page = pageFor(path)
  const allowed = page ? opens(page, operator.roles) : false
  const title = !page ? 'Page introuvable' : allowed ? page.title : 'Accès réservé'
  useEffect(() => {
    document.title = `${title} · Back-office ${BRAND_NAME}`
  }, [title])
  const menu = menuFor(operator.roles)
  return (
    <Frame>
      <SkipLink href="#contenu">Aller au contenu</SkipLink>
      <Bar>
        <strong>{BRAND_NAME} · Back-office</strong>
        <p>
          {operator.name} <span>({rolesText(operator.roles)})</span>
        </p>
        <Button type="button" $variant="secondary" onClick={() => session.send({ type: 'session.signOut' })} disabled={signingOut}>
          Se déconnecter
        </Button>
      </Bar>
      <Body>
        <Menu aria-label="Menu du back-office">
          <ul>
            {menu.map((item) => (
              <li key={item.to}>
                <Link href={item.to} aria-current={page?.path === item.to ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </Menu>
        <Content id="contenu" tabIndex={-1}>
          <h1 id="titre" tabIndex={-1}>
            {title}
          </h1>
          {!page ? (
            <p>
              Cette adresse ne correspond à aucune page du back-office.{' '}
              <Link href={menu[0]?.to ?? '/operateur'}>Revenir au tableau de bord</Link>
            </p>
          ) : !allowed ? (
            <AccessDenied page={page.roles ?? []} />
          ) : (
            <Suspense fallback={<CodeLoading />}>
              <page.Page operator={operator} menu={menu} />
            </Suspense>
          )}
        </Content>
      </Body>
    </Frame>
  )
}

/** A page of a role the operator lacks: what it needs, and whom to ask. */
function AccessDenied({ page: roles }: { page: readonly OperatorMe['roles'][number][] }) {
  return (
    <div role="alert">
      <p>Cette page est réservée aux opérateurs ayant le rôle {roles.map((role) => `« ${ROLE_LABELS[role]} »`).join(' ou ')}.</p>
      <p>Si vous en avez besoin, demandez à un administrateur de vous l’attribuer.</p>
    </div>
  )
}
