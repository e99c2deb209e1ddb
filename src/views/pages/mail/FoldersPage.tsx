// /mes-courriers/mes-dossiers: the folders of the selected order (a shared order shows the shared
// folders, see effects.ts) with their number of letters; create, rename, delete (letters stay, unfiled).
import { useActorRef, useSelector } from '@xstate/react'
import { useState } from 'react'
import { Link } from 'wouter'
import type { Order } from '../../../../server/contract/session.ts'
import type { folderEditorMachine } from '../../../machines/mail/folderEditor.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, Field, touchLink } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import {
  companyOf,
  ListState,
  Muted,
  PageCard,
  Row,
  Rows,
  Toolbar,
  useOrders,
  usePortal,
  useResource,
  useSelectedOrder,
} from '../../components/page.tsx'
import { letters } from '../../components/labels.ts'
import type { ActorRefFrom } from 'xstate'

type EditorRef = ActorRefFrom<typeof folderEditorMachine>

export default function FoldersPage(_: PageProps) {
  const flows = useFlows('mail')
  const { startup, data } = usePortal()
  const order = useSelectedOrder(startup)
  const orders = useOrders(startup)
  const { items, status, error } = useResource(data, 'folders')
  const editor = useActorRef(flows.folderEditor)
  const formOpen = useSelector(editor, (s) => s.hasTag('form'))
  const confirmOpen = useSelector(editor, (s) => s.hasTag('confirm'))
  const folders = items ?? []

  return (
    <PageCard aria-labelledby="folders-title">
      <Toolbar>
        {/* Focused by the dialogs once their opener ("Renommer", "Supprimer") is gone; never by Tab. */}
        <h2 id="folders-title" tabIndex={-1}>
          Mes dossiers
        </h2>
        <Button type="button" onClick={() => editor.send({ type: 'folder.new', orderId: order?.id ?? null })}>
          Nouveau dossier
        </Button>
      </Toolbar>
      {order?.isShareOrder && <Muted>Les dossiers de {order.raisonSociale}, partagés avec vous.</Muted>}
      <ListState
        status={status}
        error={error}
        label="vos dossiers"
        empty="Aucun dossier pour le moment : créez-en un pour classer vos courriers."
        isEmpty={folders.length === 0}
        onRetry={() => startup.send({ type: 'data.retry', resource: 'folders' })}
      >
        <Rows aria-label="Dossiers">
          {folders.map((f) => (
            <Row key={f.id}>
              <div>
                <Link className={touchLink()} href={`/mes-courriers/courriers?dossier=${f.id}`}>
                  <strong>{f.name}</strong>
                </Link>
                <div>
                  <Muted>{letters(f.documentCount)}</Muted>{' '}
                  {companyOf(!order, orders.find((o) => o.id === f.domiciliationOrderId)?.raisonSociale ?? '')}
                </div>
              </div>
              <div>
                <Button
                  type="button"
                  $variant="secondary"
                  aria-label={`Renommer le dossier ${f.name}`}
                  onClick={() => editor.send({ type: 'folder.edit', folder: f })}
                >
                  Renommer
                </Button>{' '}
                <Button
                  type="button"
                  $variant="ghost"
                  aria-label={`Supprimer le dossier ${f.name}`}
                  onClick={() => editor.send({ type: 'folder.remove', folder: f })}
                >
                  Supprimer
                </Button>
              </div>
            </Row>
          ))}
        </Rows>
      </ListState>
      {formOpen && <FolderForm editor={editor} orders={orders} />}
      {confirmOpen && <DeleteConfirmation editor={editor} />}
    </PageCard>
  )
}

function FolderForm({ editor, orders }: { editor: EditorRef; orders: Order[] }) {
  const renaming = useSelector(editor, (s) => s.context.folder)
  const draft = useSelector(editor, (s) => s.context.draft)
  const error = useSelector(editor, (s) => s.context.error)
  const busy = useSelector(editor, (s) => s.hasTag('busy'))
  // With 'Tous', a new folder needs its order.
  const [askOrder] = useState(() => editor.getSnapshot().context.folder === null && editor.getSnapshot().context.draft.orderId === null)
  return (
    <Modal
      title={renaming ? `Renommer « ${renaming.name} »` : 'Nouveau dossier'}
      onClose={() => editor.send({ type: 'folder.cancel' })}
      locked={busy}
      // A folder deleted elsewhere takes its 'Renommer' (the opener) with it once the folders are read again.
      fallbackFocus={() => document.getElementById('folders-title')}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={() => editor.send({ type: 'folder.cancel' })} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" form="folder-form" disabled={busy}>
            {busy ? 'Enregistrement…' : renaming ? 'Renommer' : 'Créer le dossier'}
          </Button>
        </>
      }
    >
      <form
        id="folder-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          editor.send({ type: 'folder.submit' })
        }}
      >
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <Field id="folder-name" label="Nom du dossier" hint="80 caractères au plus">
          <input
            id="folder-name"
            value={draft.name}
            maxLength={80}
            data-autofocus
            aria-invalid={!!error}
            onChange={(e) => editor.send({ type: 'folder.change', draft: { name: e.target.value } })}
          />
        </Field>
        {askOrder && (
          <Field id="folder-order" label="Domiciliation">
            <select
              id="folder-order"
              value={draft.orderId ?? ''}
              onChange={(e) => editor.send({ type: 'folder.change', draft: { orderId: e.target.value ? Number(e.target.value) : null } })}
            >
              <option value="">Choisissez…</option>
              {orders.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.raisonSociale}
                </option>
              ))}
            </select>
          </Field>
        )}
      </form>
    </Modal>
  )
}

function DeleteConfirmation({ editor }: { editor: EditorRef }) {
  const folder = useSelector(editor, (s) => s.context.folder)!
  const error = useSelector(editor, (s) => s.context.error)
  const busy = useSelector(editor, (s) => s.hasTag('busy'))
  return (
    <Modal
      title={`Supprimer « ${folder.name} » ?`}
      onClose={() => editor.send({ type: 'folder.cancel' })}
      locked={busy}
      fallbackFocus={() => document.getElementById('folders-title')}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={() => editor.send({ type: 'folder.cancel' })} disabled={busy}>
            Garder le dossier
          </Button>
          <Button type="button" $variant="danger" onClick={() => editor.send({ type: 'folder.confirm' })} disabled={busy} data-autofocus>
            {busy ? 'Suppression…' : 'Supprimer le dossier'}
          </Button>
        </>
      }
    >
      <p>
        {folder.documentCount === 0
          ? 'Ce dossier est vide.'
          : folder.documentCount === 1
            ? 'Le courrier qu’il contient reste dans votre liste, sans dossier.'
            : `Les ${folder.documentCount} courriers qu’il contient restent dans votre liste, sans dossier.`}
      </p>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
    </Modal>
  )
}
