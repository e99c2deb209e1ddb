// The mobile top navigation (spec §2): 'Domiciliation:' with the selected company, or 'Tous',
// as a link that reopens the order choice; and the button that opens the menu drawer.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import type { Ref, RefObject } from 'react'
import { BRAND_NAME } from '../../wiring/config.ts'
import { selectedOrder, type StartupContext } from '../../machines/session/startup.machine.ts'
import type { StartupRef } from '../app-context.tsx'
import { IconButton } from '../components/ui.tsx'
import { Icon } from '../icons.tsx'
import { color, mq } from '../theme.ts'

const Bar = styled('nav')`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  padding: 0.25rem 0.75rem;
  background: ${color.primary};
  color: #fff;
  ${mq.desktop} { display: none; }
  button { color: inherit; }
`

const Choice = styled('div')`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: 0.35rem;
  min-width: 0;
  font-size: 0.95rem;
`

const ChoiceLink = styled('button')`
  border: none;
  background: transparent;
  padding: 0.6rem 0.25rem;
  min-height: 44px;
  min-width: 44px;
  font-weight: 700;
  text-decoration: underline;
  text-underline-offset: 3px;
  cursor: pointer;
  text-align: left;
`

export function MobileNav({
  startup,
  menuOpen,
  onMenu,
  menuButton,
  choiceButton,
}: {
  startup: StartupRef
  menuOpen: boolean
  onMenu: () => void
  menuButton: RefObject<HTMLButtonElement | null>
  /** Where the focus returns from the order choice. */
  choiceButton?: Ref<HTMLButtonElement> | undefined
}) {
  const company = useSelector(startup, (s) => selectedOrder(s.context as StartupContext)?.raisonSociale ?? 'Tous')
  return (
    <Bar aria-label={`${BRAND_NAME} : navigation mobile`}>
      <IconButton
        ref={menuButton}
        type="button"
        aria-label="Ouvrir le menu"
        aria-expanded={menuOpen}
        aria-controls="menu-principal"
        onClick={onMenu}
      >
        <Icon name="menu" />
      </IconButton>
      <Choice>
        <span>Domiciliation:</span>
        <ChoiceLink
          ref={choiceButton}
          type="button"
          onClick={() => startup.send({ type: 'order.reopen' })}
          aria-label={`Domiciliation: ${company}. Changer de domiciliation`}
        >
          {company}
        </ChoiceLink>
      </Choice>
    </Bar>
  )
}
