// /tableau-de-bord: the greeting; the mail summary comes with the mail screens.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useStartup } from '../app-context.tsx'
import { Card } from '../components/ui.tsx'
import type { PageProps } from '../routes.ts'
import { color } from '../theme.ts'

const Text = styled('p')`
  color: ${color.muted};
`

export default function Dashboard(_: PageProps) {
  const startup = useStartup()
  const firstname = useSelector(startup, (s) => s?.context.user?.firstname ?? '')
  return (
    <Card aria-labelledby="greeting">
      <h2 id="greeting">Bonjour {firstname}</h2>
      <Text>
        Bienvenue dans votre espace client. Le résumé de votre courrier, de vos colis et de vos réexpéditions est en cours de
        préparation et s’affichera bientôt ici.
      </Text>
    </Card>
  )
}
