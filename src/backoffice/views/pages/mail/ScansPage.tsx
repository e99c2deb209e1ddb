// /operateur/numerisation: PDFs dropped at once (or chosen), each uploaded in its own request with its progress, then
// checked and read by the server, which suggests an order with its reason and a sender; the operator confirms or
// changes them on each card and publishes one or all confirmed. The queue is the server's, shared by every operator.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type DragEvent, useRef, useState } from 'react'
import { isPublishable, type LocalFile } from '../../../machines/mail/scanQueue.machine.ts'
import { Alert, BusyButton, Button, ErrorState, Spinner } from '../../../../views/components/ui.tsx'
import { color, radius } from '../../../../views/theme.ts'
import { useBackOffice } from '../../context.tsx'
import { Panel } from '../operators/admin.styles.ts'
import { Actions, Badge, Cards } from './mail.styles.ts'
import { ScanCard } from './ScanCard.tsx'

const Drop = styled('div')<{ $over: boolean }>`
  border: 2px dashed ${(p) => (p.$over ? color.primary : color.border)};
  background: ${(p) => (p.$over ? color.primarySoft : 'transparent')};
  border-radius: ${radius};
  padding: 1.5rem;
  text-align: center;
  p { margin: 0 0 0.75rem; }
`
const Uploads = styled('ul')`
  list-style: none;
  margin: 1rem 0 0;
  padding: 0;
  li { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; padding: 0.4rem 0; border-bottom: 1px solid ${color.border}; }
  progress { flex: 1 1 10rem; height: 0.9rem; }
  span { overflow-wrap: anywhere; }
`

let nextKey = 0
const localFiles = (list: FileList | File[]): LocalFile[] =>
  [...list].map((file) => ({ key: `f${++nextKey}`, name: file.name, size: file.size, type: file.type, file }))

export default function ScansPage() {
  const { flows } = useBackOffice()
  const queue = useActorRef(flows.scanQueue)
  const scans = useSelector(queue, (s) => s.context.scans)
  const failed = useSelector(queue, (s) => s.matches({ queue: 'failed' }))
  const error = useSelector(queue, (s) => s.context.error)
  const uploads = useSelector(queue, (s) => s.context.uploads)
  const publishing = useSelector(queue, (s) => s.hasTag('publishing'))
  const publishError = useSelector(queue, (s) => s.context.publishError)
  const skipped = useSelector(queue, (s) => s.context.skipped)
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)

  const add = (files: FileList | File[] | null) => files && files.length > 0 && queue.send({ type: 'files.add', files: localFiles(files) })
  function drop(event: DragEvent) {
    event.preventDefault()
    setOver(false)
    add(event.dataTransfer.files)
  }
  const ready = scans?.filter(isPublishable) ?? []
  const toCheck = scans?.filter((s) => s.toCheck).length ?? 0
  return (
    <>
      <Panel aria-labelledby="deposer">
        <h2 id="deposer">Déposer des scans</h2>
        <Drop
          $over={over}
          onDragOver={(e) => {
            e.preventDefault()
            setOver(true)
          }}
          onDragLeave={() => setOver(false)}
          onDrop={drop}
          data-testid="scan-drop"
        >
          <p>Glissez ici les PDF scannés, autant que vous voulez à la fois (10 Mo au plus chacun).</p>
          <Button type="button" onClick={() => input.current?.click()}>
            Choisir des PDF
          </Button>
          <input
            ref={input}
            type="file"
            accept="application/pdf,.pdf"
            multiple
            hidden
            aria-label="Scans à déposer (PDF)"
            onChange={(e) => {
              add(e.target.files)
              e.target.value = ''
            }}
          />
        </Drop>
        {uploads.length > 0 && (
          <Uploads aria-label="Envois en cours">
            {uploads.map((u) => (
              <li key={u.key}>
                <span>{u.name}</span>
                {u.status === 'failed' ? (
                  <>
                    <Badge $kind="danger" role="alert">
                      {u.error}
                    </Badge>
                    {!u.refused && (
                      <Button type="button" $variant="secondary" onClick={() => queue.send({ type: 'upload.retry', key: u.key })}>
                        Réessayer
                      </Button>
                    )}
                    <Button type="button" $variant="ghost" onClick={() => queue.send({ type: 'upload.dismiss', key: u.key })}>
                      Retirer
                    </Button>
                  </>
                ) : (
                  <>
                    <progress max={1} value={u.progress} aria-label={`Envoi de ${u.name}`} />
                    <span>{u.status === 'waiting' ? 'En attente' : `${Math.round(u.progress * 100)} %`}</span>
                  </>
                )}
              </li>
            ))}
          </Uploads>
        )}
      </Panel>
      <Panel aria-labelledby="file-scans">
        <h2 id="file-scans">Scans à publier</h2>
        {failed && <ErrorState message={error!} onRetry={() => queue.send({ type: 'queue.retry' })} />}
        {!scans && !failed && <Spinner label="Chargement des scans…" />}
        {scans && (
          <>
            <p role="status">
              {scans.length === 0
                ? 'Aucun scan en attente : déposez-en ci-dessus.'
                : `${scans.length} scan${scans.length > 1 ? 's' : ''} en attente, ${ready.length} confirmé${ready.length > 1 ? 's' : ''}${
                    toCheck ? `, ${toCheck} à vérifier` : ''
                  }.`}
            </p>
            <Actions>
              <BusyButton
                type="button"
                busy={publishing}
                disabled={ready.length === 0}
                onClick={() => queue.send({ type: 'publish.confirmed' })}
              >
                {publishing ? 'Publication…' : `Publier les confirmés (${ready.length})`}
              </BusyButton>
            </Actions>
            {publishError && (
              <Alert $kind="error" role="alert">
                {publishError}
              </Alert>
            )}
            {skipped.length > 0 && (
              <Alert $kind="info" role="status">
                Non publiés :{' '}
                {skipped
                  .map((s) => `${scans.find((scan) => scan.id === s.scanId)?.fileName ?? `scan ${s.scanId}`} (${s.message})`)
                  .join(' ; ')}
              </Alert>
            )}
            {scans.length > 0 && (
              <Cards>
                {scans.map((scan) => (
                  // A scan read since it was shown comes with its suggestion: its card starts again from it.
                  <ScanCard key={`${scan.id}-${scan.reading}`} scan={scan} queue={queue} />
                ))}
              </Cards>
            )}
          </>
        )}
      </Panel>
    </>
  )
}
