// The pages whose contents come in later work: their title, and a plain word that the section is
// being prepared. Nothing here pretends to work.
import { styled } from 'goober'
import { Link } from 'wouter'
import type { PageProps } from '../pages/page.ts'
import { Card } from './ui.tsx'
import { color } from '../theme.ts'

const Text = styled('p')`
  color: ${color.muted};
`

export default function Preparing({ route }: PageProps) {
  return (
    <Card aria-labelledby="page-title">
      <h2 id="page-title">{route.title}</h2>
      <Text>Cette rubrique est en cours de préparation : elle sera bientôt disponible dans votre espace client.</Text>
      <p>
        Besoin d’aide dès maintenant ? Utilisez le bouton « Signaler un problème » du menu, ou revenez au{' '}
        <Link href="/tableau-de-bord">tableau de bord</Link>.
      </p>
    </Card>
  )
}
