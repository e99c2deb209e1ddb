// « Fermer mon compte » on /informations-personnelles (RGPD art. 17): what goes and what the law keeps, then the
// password, in a dialog (closeAccount machine); the server decides and says why when a domiciliation is still active.
import { useActorRef, useSelector } from '@xstate/react'
import { useState } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { closeAccountMachine } from '../../../machines/people/closeAccount.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, TextField } from '../../components/ui.tsx'
import { Toolbar } from '../../components/page.tsx'
import { Section } from './Section.tsx'

type CloseAccountRef = ActorRefFrom<typeof closeAccountMachine>

export function CloseAccountSection() {
  const flows = useFlows('people')
  const actor = useActorRef(flows.closeAccount)
  const open = useSelector(actor, (s) => s.hasTag('dialog'))
  return (
    <Section id="close-account-title" title="Fermer mon compte">
      <p>
        Vos accès sont supprimés et vos données personnelles effacées. C’est possible une fois chacune de vos domiciliations résiliée et sa
        date de résiliation passée ; si vous êtes seulement collaborateur, à tout moment.
      </p>
      <Toolbar>
        <Button type="button" $variant="danger" onClick={() => actor.send({ type: 'close.open' })}>
          Fermer mon compte
        </Button>
      </Toolbar>
      {open && <CloseAccountDialog actor={actor} />}
    </Section>
  )
}

function CloseAccountDialog({ actor }: { actor: CloseAccountRef }) {
  const step = useSelector(actor, (s) => (s.matches('confirming') ? 'confirm' : s.matches('refused') ? 'refused' : 'password'))
  const error = useSelector(actor, (s) => s.context.error)
  const refusal = useSelector(actor, (s) => s.context.refusal)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const [password, setPassword] = useState('')
  const cancel = () => actor.send({ type: 'close.cancel' })
  if (step === 'refused')
    return (
      <Modal
        title="Votre compte ne peut pas encore être fermé"
        onClose={cancel}
        footer={
          <Button type="button" data-autofocus onClick={cancel}>
            J’ai compris
          </Button>
        }
      >
        <Alert $kind="error" role="alert">
          {refusal}
        </Alert>
      </Modal>
    )
  if (step === 'confirm')
    return (
      <Modal
        title="Fermer votre compte ?"
        onClose={cancel}
        footer={
          <>
            <Button type="button" $variant="secondary" onClick={cancel}>
              Garder mon compte
            </Button>
            <Button type="button" $variant="danger" data-autofocus onClick={() => actor.send({ type: 'close.continue' })}>
              Continuer
            </Button>
          </>
        }
      >
        <p>
          <strong>Supprimés dès la fermeture :</strong> vos connexions sur tous vos appareils, vos clés d’accès, vos nom, téléphone et
          adresse e-mail, et vos accès aux domiciliations partagées avec vous. Vous pourrez créer un nouveau compte avec la même adresse.
        </p>
        <p>
          <strong>Conservés, comme la loi nous y oblige, détachés de votre compte :</strong> les factures et avoirs pendant dix ans, et le
          dossier d’identification de chaque domiciliation cinq ans après sa fin.
        </p>
        <p>Téléchargez d’abord les courriers que vous souhaitez garder : vous ne pourrez plus les consulter ici.</p>
      </Modal>
    )
  return (
    <Modal
      title="Confirmez avec votre mot de passe"
      onClose={cancel}
      locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" form="close-account-form" $variant="danger" disabled={busy}>
            {busy ? 'Fermeture…' : 'Fermer définitivement mon compte'}
          </Button>
        </>
      }
    >
      <form
        id="close-account-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'close.submit', password })
        }}
      >
        <TextField
          id="close-account-password"
          label="Mot de passe"
          type="password"
          autoComplete="current-password"
          value={password}
          data-autofocus
          error={error}
          onChange={setPassword}
        />
      </form>
    </Modal>
  )
}
