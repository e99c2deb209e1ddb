// The Kbis banner's upload modal 'Déposer mon justificatif' (spec §2, §5): is the registered office the domiciliation
// address? 'Oui' opens the file chooser (PDF only), 'Non' closes; the upload's progress and its error.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import type { ActorRefFrom } from 'xstate'
import type { Order } from '../../../../server/contract/session.ts'
import type { kbisUploadMachine } from '../../../machines/company/kbisUpload.machine.ts'
import { BRAND_NAME } from '../../../wiring/config.ts'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button } from '../../components/ui.tsx'
import { MAX_UPLOAD_LABEL } from '../../../../server/contract/rules/uploads.ts'

const Busy = styled('div')`
  margin-top: 1rem;
  progress { width: 100%; height: 0.75rem; }
`

export function KbisDialog({
  actor,
  order,
  openChooser,
  chooseFile,
}: {
  actor: ActorRefFrom<typeof kbisUploadMachine>
  order: Order | null
  /** 'Oui': the banner opens its file chooser within the click (browsers need the user's gesture). */
  openChooser: () => void
  chooseFile: () => void
}) {
  const choosing = useSelector(actor, (s) => s.hasTag('chooser'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  return (
    <Modal
      title="Déposer mon justificatif"
      headerStyle="accent"
      onClose={() => actor.send({ type: 'kbis.close' })}
      locked={busy}
      // Uploaded: the banner and the button that opened this are gone; the page's content (Shell's <main>) takes the focus.
      fallbackFocus={() => document.getElementById('contenu')}
      footer={
        busy ? null : choosing ? (
          <>
            <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'kbis.cancel' })}>
              Annuler
            </Button>
            <Button type="button" onClick={chooseFile}>
              Choisir un fichier PDF
            </Button>
          </>
        ) : (
          <>
            <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'kbis.no' })}>
              Non
            </Button>
            <Button type="button" onClick={openChooser} data-autofocus>
              Oui
            </Button>
          </>
        )
      }
    >
      <p>
        Le siège social indiqué sur votre justificatif est-il bien l’adresse de domiciliation chez {BRAND_NAME}
        {order ? ` de ${order.raisonSociale}` : ''} ?
      </p>
      <p>
        Répondez « Oui » pour déposer votre extrait Kbis ou votre avis de situation INSEE au format PDF ({MAX_UPLOAD_LABEL} au maximum).
      </p>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      {busy && (
        <Busy role="status">
          <p>Envoi de votre justificatif en cours…</p>
          <progress aria-label="Envoi en cours" />
        </Busy>
      )}
    </Modal>
  )
}
