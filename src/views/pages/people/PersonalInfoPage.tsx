// /informations-personnelles (PRODUCT.md): first name, last name, e-mail; "Modifier mon e-mail",
// "Modifier mon mot de passe", "Clés d'accès" and "Appareils connectés".
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import type { StartupContext } from '../../../machines/session/startup.machine.ts'
import { useStartup } from '../../app-context.tsx'
import { Spinner } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import { mq } from '../../theme.ts'
import { EmailSection, PasswordSection } from './AccountSections.tsx'
import { DevicesSection } from './DevicesSection.tsx'
import { MyDataSection } from './MyDataSection.tsx'
// notifications
import { NotificationPreferencesSection } from '../notifications/NotificationPreferencesSection.tsx'
import { PasskeysSection } from './PasskeysSection.tsx'
import { Section } from './Section.tsx'
import { CloseAccountSection } from './CloseAccountSection.tsx'
import { LeaveOrderSection } from './LeaveOrderSection.tsx'

const Columns = styled('div')`
  display: grid;
  gap: 1rem;
  align-items: start;
  ${mq.desktop} { grid-template-columns: 1fr 1fr; }
  > div { display: flex; flex-direction: column; gap: 1rem; min-width: 0; }
`

const Identity = styled('dl')`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 0.5rem 1rem;
  margin: 0;
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
`

export default function PersonalInfoPage(_: PageProps) {
  const startup = useStartup()!
  const user = useSelector(startup, (s) => (s.context as StartupContext).user)
  if (!user) return <Spinner label="Chargement : vos informations…" />
  return (
    <Columns>
      <div>
        <Section id="identity-title" title="Mes informations">
          <Identity>
            <dt>Prénom</dt>
            <dd>{user.firstname}</dd>
            <dt>Nom</dt>
            <dd>{user.lastname}</dd>
            <dt>E-mail</dt>
            <dd>{user.email}</dd>
          </Identity>
        </Section>
        <EmailSection email={user.email} />
        <PasswordSection />
      </div>
      <div>
        <PasskeysSection />
        <DevicesSection />
        <NotificationPreferencesSection />
        <LeaveOrderSection />
        <CloseAccountSection />
        <MyDataSection />
      </div>
    </Columns>
  )
}
