// The viewer of /mes-courriers/courriers: the open letter's scan (from a blob: URL), download, send
// by e-mail, file in a folder; its deadline when the letter names one. Where the browser draws no PDF
// inside a page (Android), the scan shows as page images instead (LetterPages).
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import type { RefObject } from 'react'
import { useRef } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { Folder, MailDocument } from '../../../../server/contract/mail.ts'
import type { mailboxMachine } from '../../../machines/mail/mailbox.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { documentKind } from '../../components/labels.ts'
import { LetterDeadlineNote } from '../../components/letterDeadline.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Muted, useObjectUrl } from '../../components/page.tsx'
import { Alert, Button, ErrorState, Field, formatDate, Spinner } from '../../components/ui.tsx'
import { useFocusAfter } from '../../components/useFocusWhenShown.ts'
import { color, mq, radius } from '../../theme.ts'
import { LetterPages } from './LetterPages.tsx'
import { LetterHistory } from './LetterHistory.tsx'

type MailboxRef = ActorRefFrom<typeof mailboxMachine>

const Viewer = styled('section')`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  /* A long sender, company or folder name wraps instead of widening the page (the server allows 80-character folder
     names: a select is as wide as its longest option unless held to its container). */
  min-width: 0;
  overflow-wrap: anywhere;
  h3 { margin: 0; font-size: 1.15rem; overflow-wrap: anywhere; }
  iframe { width: 100%; height: 70vh; min-height: 420px; border: 1px solid ${color.border}; border-radius: ${radius}; background: #fff; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
  .actions select {
    min-height: 44px;
    min-width: 0;
    max-width: 100%;
    padding: 0.4rem 0.6rem;
    border: 1px solid ${color.border};
    border-radius: ${radius};
  }
  .actions select[aria-disabled='true'] { opacity: 0.6; cursor: not-allowed; }
`

const LinkButton = styled('a')`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 0.55rem 1.1rem;
  border-radius: ${radius};
  border: 1px solid ${color.border};
  background: ${color.surface};
  color: ${color.primary};
  font-weight: 600;
  text-decoration: none;
`

const Checks = styled('fieldset')`
  border: 1px solid ${color.border};
  border-radius: ${radius};
  max-height: 14rem;
  overflow: auto;
  margin: 0 0 1rem;
  label { display: flex; gap: 0.5rem; align-items: center; min-height: 36px; min-width: 0; overflow-wrap: anywhere; }
  /* On a phone each row is a 44 px target, as every other control there. */
  ${mq.mobile} { label { min-height: 44px; } }
`

/** What the search box looks at: sender and kind, accents and case ignored. */
export function LetterViewer({
  letter,
  mailbox,
  folders,
  candidates,
  onBack,
  headingRef,
}: {
  letter: MailDocument
  mailbox: MailboxRef
  folders: Folder[]
  candidates: MailDocument[]
  onBack: (() => void) | null
  /** The sender's heading: where the focus goes when a phone opens the letter, or once its scan is back. */
  headingRef: RefObject<HTMLHeadingElement | null>
}) {
  const file = useSelector(mailbox, (s) => (s.context.opened?.id === letter.id ? s.context.file : null))
  const loading = useSelector(mailbox, (s) => s.hasTag('loadingFile'))
  const fileError = useSelector(mailbox, (s) => s.context.fileError)
  const moving = useSelector(mailbox, (s) => s.hasTag('moving'))
  const sendOpen = useSelector(mailbox, (s) => s.hasTag('sendForm'))
  const url = useObjectUrl(file)
  const imageMode = !useFlows('mail').pdfViewerEnabled()
  const fileName = `courrier-${letter.id}-${letter.sender.replace(/[^\p{L}\p{N}]+/gu, '-')}.pdf`
  // 'Réessayer' gives way to a spinner, then to the scan (the focus to the heading) or to the error again (its button).
  const retryButton = useRef<HTMLButtonElement>(null)
  const afterRetry = useFocusAfter(!loading, () => (fileError ? retryButton.current : headingRef.current))

  return (
    <Viewer aria-label="Aperçu du courrier">
      {onBack && (
        <Button type="button" $variant="ghost" onClick={onBack}>
          ← Retour à la liste
        </Button>
      )}
      <div>
        <h3 ref={headingRef} tabIndex={-1}>
          {letter.sender}
        </h3>
        <Muted>
          {documentKind[letter.kind]} · reçu le <time dateTime={letter.receivedAt}>{formatDate(letter.receivedAt)}</time> ·{' '}
          {`${letter.pages} page${letter.pages > 1 ? 's' : ''}`} · {letter.raisonSociale}
        </Muted>
        {letter.deadline && (
          <p>
            <LetterDeadlineNote deadline={letter.deadline} />
          </p>
        )}
      </div>
      <div className="actions">
        {url ? (
          <LinkButton href={url} download={fileName}>
            Télécharger
          </LinkButton>
        ) : (
          <Button type="button" $variant="secondary" disabled>
            Télécharger
          </Button>
        )}
        {url && !imageMode && (
          <LinkButton href={url} target="_blank" rel="noopener">
            Ouvrir en plein écran
          </LinkButton>
        )}
        <Button type="button" $variant="secondary" onClick={() => mailbox.send({ type: 'send.open', documentIds: [letter.id] })}>
          Envoyer par e-mail
        </Button>
        {/* Unavailable while a move is saved, yet focusable: disabled, it would drop the focus to <body> (Chrome). A
            choice meanwhile is not sent (the mailbox takes one move at a time) and the select keeps the letter's folder. */}
        <select
          aria-label="Classer dans un dossier"
          value={letter.folderId ?? ''}
          aria-disabled={moving || undefined}
          onChange={(e) =>
            moving ||
            mailbox.send({ type: 'letter.move', document: letter, folderId: e.target.value === '' ? null : Number(e.target.value) })
          }
        >
          <option value="">Aucun dossier</option>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </div>
      {fileError ? (
        <ErrorState
          message={fileError}
          retryRef={retryButton}
          onRetry={() => {
            afterRetry()
            mailbox.send({ type: 'viewer.retry' })
          }}
        />
      ) : imageMode ? null : url ? (
        <iframe src={url} title={`Courrier de ${letter.sender}`} />
      ) : (
        loading && <Spinner label="Chargement du courrier numérisé…" />
      )}
      {/* Keyed by its images: a letter still being prepared shows its pages once a reading of the list brings them. */}
      {imageMode && <LetterPages key={letter.pageImages} letter={letter} />}
      <LetterHistory letter={letter} refresh={`${letter.folderId}:${letter.read}:${sendOpen}:${loading}`} />
      {sendOpen && (
        <SendDialog mailbox={mailbox} candidates={candidates.some((d) => d.id === letter.id) ? candidates : [letter, ...candidates]} />
      )}
    </Viewer>
  )
}

function SendDialog({ mailbox, candidates }: { mailbox: MailboxRef; candidates: MailDocument[] }) {
  const form = useSelector(mailbox, (s) => s.context.form)
  const ids = useSelector(mailbox, (s) => s.context.sendIds)
  const busy = useSelector(mailbox, (s) => s.hasTag('busy'))
  const error = useSelector(mailbox, (s) => s.context.sendError)
  const toggle = (id: number) =>
    mailbox.send({ type: 'send.pick', documentIds: ids.includes(id) ? ids.filter((i) => i !== id) : [...ids, id] })
  return (
    <Modal
      title="Envoyer par e-mail"
      onClose={() => mailbox.send({ type: 'send.close' })}
      locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={() => mailbox.send({ type: 'send.close' })} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" form="send-letters" disabled={busy}>
            {busy ? 'Envoi…' : `Envoyer ${ids.length > 1 ? `les ${ids.length} courriers` : 'le courrier'}`}
          </Button>
        </>
      }
    >
      <form
        id="send-letters"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          mailbox.send({ type: 'send.submit' })
        }}
      >
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <Field id="send-email" label="Destinataire (adresse e-mail)">
          <input
            id="send-email"
            type="email"
            autoComplete="email"
            value={form.email}
            data-autofocus
            onChange={(e) => mailbox.send({ type: 'send.change', form: { email: e.target.value } })}
          />
        </Field>
        <Field id="send-message" label="Message (facultatif)">
          <textarea
            id="send-message"
            rows={3}
            maxLength={2000}
            value={form.message}
            onChange={(e) => mailbox.send({ type: 'send.change', form: { message: e.target.value } })}
          />
        </Field>
        <Checks>
          <legend>Courriers joints</legend>
          {candidates.slice(0, 50).map((d) => (
            <label key={d.id}>
              <input type="checkbox" checked={ids.includes(d.id)} onChange={() => toggle(d.id)} />
              {d.sender} — {formatDate(d.receivedAt)}
            </label>
          ))}
        </Checks>
      </form>
    </Modal>
  )
}
