// The file of a justificatif, read with the session and shown beside its details: a PDF in a frame, a picture as it is.
import { useEffect, useState } from 'react'
import type { Justificatif } from '../../../../../server/contract/company-backoffice.ts'
import { ErrorState, Spinner } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'

export function JustificatifFile({ document }: { document: Justificatif }) {
  const { files } = useBackOffice()
  const [url, setUrl] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  const [attempt, setAttempt] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version is a new file to read (attempt: « Réessayer »)
  useEffect(() => {
    const controller = new AbortController()
    let made: string | null = null
    setUrl(null)
    setFailed(false)
    files
      .justificatif(document.kind, document.id, controller.signal)
      .then((blob) => {
        made = URL.createObjectURL(blob)
        setUrl(made)
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true)
      })
    return () => {
      controller.abort()
      if (made) URL.revokeObjectURL(made)
    }
  }, [files, document.kind, document.id, document.version, attempt])
  if (failed) return <ErrorState message="Le fichier n’a pas pu être chargé." onRetry={() => setAttempt((n) => n + 1)} />
  if (!url) return <Spinner label="Chargement du fichier…" />
  const title = `${document.label} de ${document.raisonSociale} (${document.fileName})`
  return document.contentType === 'application/pdf' ? (
    <iframe src={url} title={title} style={{ width: '100%', height: '70vh', border: 0 }} />
  ) : (
    <img src={url} alt={title} style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }} />
  )
}
