// The sticky Kbis banner and the upload modal 'Déposer mon justificatif' (spec §2, §4, §5).
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useEffect, useRef } from 'react'
import type { Order } from '../../../server/contract/schemas.ts'
import { BRAND_NAME } from '../../wiring/config.ts'
import type { ChosenFile } from '../../machines/kbisUpload.machine.ts'
import { useFlows } from '../app-context.tsx'
import { Modal } from '../components/Modal.tsx'
import { Alert, Button } from '../components/ui.tsx'
import { color, mq } from '../theme.ts'

const Banner = styled('section')`
  position: sticky;
  top: 0;
  z-index: 20;
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  padding: 0.9rem 1rem;
  background: ${color.accentSoft};
  border-bottom: 2px solid ${color.accent};
  p { margin: 0; }
  ${mq.desktop} { flex-direction: row; align-items: center; justify-content: space-between; gap: 1.5rem; }
`

const Buttons = styled('div')`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  ${mq.desktop} { flex-wrap: nowrap; flex-shrink: 0; }
`

const Busy = styled('div')`
  margin-top: 1rem;
  progress { width: 100%; height: 0.75rem; }
`

export const KBIS_BANNER_TEXT =
  'Pour activer votre compte, notre équipe a besoin de votre extrait Kbis ou de votre avis de situation INSEE.'

export function KbisBanner({ order, contractId }: { order: Order | null; contractId: number | null }) {
  const flows = useFlows('shell')
  const actor = useActorRef(flows.kbisUpload, { input: { order, contractId } })
  const visible = useSelector(actor, (s) => !s.matches('hidden') && !s.matches('uploaded'))
  const modalOpen = useSelector(actor, (s) => s.hasTag('modal'))
  const choosing = useSelector(actor, (s) => s.hasTag('chooser'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const input = useRef<HTMLInputElement>(null)

  // A dismissed chooser fires 'cancel' on the input (React has no prop for it on inputs).
  useEffect(() => {
    const element = input.current
    if (!element) return
    const onCancel = () => actor.send({ type: 'kbis.cancel' })
    element.addEventListener('cancel', onCancel)
    return () => element.removeEventListener('cancel', onCancel)
  }, [actor, visible])

  if (!visible) return null

  // The chooser must open within the click on 'Oui' (browsers need the user's gesture).
  function openChooser() {
    actor.send({ type: 'kbis.yes' })
    if (actor.getSnapshot().hasTag('chooser')) input.current?.click()
  }

  return (
    <>
      <Banner aria-label="Justificatif d’immatriculation">
        <p>{KBIS_BANNER_TEXT}</p>
        <Buttons>
          <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'kbis.open' })}>
            J'ai mon justificatif d'immatriculation chez {BRAND_NAME}
          </Button>
          <Button type="button" onClick={() => actor.send({ type: 'kbis.open' })}>
            Je dépose mon Kbis
          </Button>
        </Buttons>
      </Banner>
      <input
        ref={input}
        type="file"
        accept=".pdf"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid="kbis-input"
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (file) actor.send({ type: 'kbis.file', file: file as ChosenFile })
        }}
      />
      {modalOpen && (
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
                <Button type="button" onClick={() => input.current?.click()}>
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
          <p>Répondez « Oui » pour déposer votre extrait Kbis ou votre avis de situation INSEE au format PDF (10 Mo au maximum).</p>
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
      )}
    </>
  )
}
