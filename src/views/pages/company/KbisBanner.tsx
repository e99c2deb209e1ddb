// The sticky Kbis banner (spec §2, §4, §5); its upload modal 'Déposer mon justificatif' (KbisDialog.tsx) is a chunk of
// its own, not on the way to the first screen.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { Suspense, useEffect, useRef } from 'react'
import type { Order } from '../../../../server/contract/session.ts'
import { BRAND_NAME } from '../../../wiring/config.ts'
import { kbisRefusedText } from '../../../../server/contract/rules/justificatifs.ts'
import type { ChosenFile } from '../../../machines/company/kbisUpload.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Button } from '../../components/ui.tsx'
import { color, mq } from '../../theme.ts'
import { KbisDialog } from '../../layout/parts.ts'

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

export const KBIS_BANNER_TEXT =
  'Pour activer votre compte, notre équipe a besoin de votre extrait Kbis ou de votre avis de situation INSEE.'

export function KbisBanner({ order, contractId }: { order: Order | null; contractId: number | null }) {
  const flows = useFlows('firstScreen')
  const actor = useActorRef(flows.kbisUpload, { input: { order, contractId } })
  const visible = useSelector(actor, (s) => !s.matches('hidden') && !s.matches('uploaded'))
  const modalOpen = useSelector(actor, (s) => s.hasTag('modal'))
  const input = useRef<HTMLInputElement>(null)

  // A dismissed chooser fires 'cancel' on the input (React has no prop for it on inputs).
  // The input exists only while the banner is visible: its listener goes on when it appears.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reason above
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
        <div>
          {order?.kbisRefusal && (
            <p>
              <strong>{kbisRefusedText(order.kbisRefusal.reason, order.kbisRefusal.detail)}</strong>
            </p>
          )}
          <p>{KBIS_BANNER_TEXT}</p>
        </div>
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
        <Suspense fallback={null}>
          <KbisDialog actor={actor} order={order} openChooser={openChooser} chooseFile={() => input.current?.click()} />
        </Suspense>
      )}
    </>
  )
}
