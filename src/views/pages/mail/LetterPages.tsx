// The letter viewer's image mode (letterPages.machine.ts): where the browser draws no PDF inside a
// page, the letter's pages as images, each fetched when it comes into view, with "Page 2 sur 3",
// pinch-zoom and the "Zoom +" / "Zoom −" buttons for the keyboard.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useEffect, useRef } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { MailDocument } from '../../../../server/contract/mail.ts'
import { type letterPagesMachine, type PageImage, ZOOM_LEVELS } from '../../../machines/mail/letterPages.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Muted, useObjectUrl, usePortal } from '../../components/page.tsx'
import { Alert, Button, ErrorState, Spinner } from '../../components/ui.tsx'
import { useFocusAfter } from '../../components/useFocusWhenShown.ts'
import { color, radius } from '../../theme.ts'

type PagesRef = ActorRefFrom<typeof letterPagesMachine>

const Frame = styled('div')`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  .zoom { display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
  .scroller {
    overflow: auto;
    max-height: 80vh;
    touch-action: pan-x pan-y pinch-zoom;
    border: 1px solid ${color.border};
    border-radius: ${radius};
    background: ${color.background};
    padding: 0.5rem;
  }
  figure { margin: 0 auto 0.75rem; }
  .sheet {
    aspect-ratio: 210 / 297;
    display: flex;
    align-items: center;
    justify-content: center;
    background: #fff;
    border: 1px solid ${color.border};
  }
  .sheet > * { width: 100%; padding: 1rem; }
  /* Until the browser has decoded the image it keeps the sheet's height: nothing below jumps up
     (and page 2 is not fetched because it came into view for one frame). */
  img { display: block; width: 100%; height: auto; aspect-ratio: auto 210 / 297; background: #fff; border: 1px solid ${color.border}; }
  figcaption { text-align: center; padding-top: 0.25rem; }
`

export function LetterPages({ letter }: { letter: MailDocument }) {
  const flows = useFlows('mail')
  const pages = useActorRef(flows.letterPages, { input: { documentId: letter.id, pageCount: letter.pageImages } })
  // While the images are being made, the letters are read again now and then (their list stays shown): once this
  // letter has its images, the viewer draws it anew with them (LetterViewer keys this by pageImages).
  const { data } = usePortal()
  useEffect(() => {
    const subscription = pages.on('pages.recheck', () => data?.send({ type: 'data.refresh', resource: 'documents' }))
    return () => subscription.unsubscribe()
  }, [pages, data])
  const preparing = useSelector(pages, (s) => s.hasTag('preparing'))
  const list = useSelector(pages, (s) => s.context.pages)
  const zoom = useSelector(pages, (s) => s.context.zoom)
  if (preparing) {
    return (
      <Alert $kind="info" role="status">
        L’aperçu de ce courrier est en cours de préparation. Vous pouvez déjà le télécharger.
      </Alert>
    )
  }
  const level = ZOOM_LEVELS[zoom]!
  return (
    <Frame>
      {/* biome-ignore lint/a11y/useSemanticElements: two buttons and a figure, not a form's fieldset */}
      <div className="zoom" role="group" aria-label="Zoom des pages">
        {/* At a limit a button says it is unavailable but keeps the focus (disabled, the one just pressed would drop it
            to <body>); a press there does nothing (the machine's guards). */}
        <Button type="button" $variant="secondary" onClick={() => pages.send({ type: 'zoom.out' })} aria-disabled={zoom === 0 || undefined}>
          Zoom −
        </Button>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => pages.send({ type: 'zoom.in' })}
          aria-disabled={zoom === ZOOM_LEVELS.length - 1 || undefined}
        >
          Zoom +
        </Button>
        <Muted aria-live="polite">{Math.round(level * 100)} %</Muted>
      </div>
      {/* A scrolling box of pages, focusable so that the keyboard scrolls it (axe: scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/useSemanticElements lint/a11y/noNoninteractiveTabindex: the reason above */}
      <div className="scroller" role="region" aria-label={`Pages du courrier de ${letter.sender}`} tabIndex={0}>
        {list.map((page, i) => (
          <LetterPage
            // biome-ignore lint/suspicious/noArrayIndexKey: a page is its place in the letter
            key={i}
            pages={pages}
            page={page}
            number={i + 1}
            total={list.length}
            sender={letter.sender}
            width={`${level * 100}%`}
          />
        ))}
      </div>
    </Frame>
  )
}

function LetterPage({
  pages,
  page,
  number,
  total,
  sender,
  width,
}: {
  pages: PagesRef
  page: PageImage
  number: number
  total: number
  sender: string
  width: string
}) {
  const ref = useRef<HTMLElement>(null)
  const url = useObjectUrl(page.image)
  // 'Réessayer' gives way to a spinner, then to the image (the focus to the pages' scrolling region) or to the error
  // again (its button).
  const retryButton = useRef<HTMLButtonElement>(null)
  const afterRetry = useFocusAfter(page.status === 'shown' || page.status === 'failed', () =>
    page.status === 'failed' ? retryButton.current : ref.current?.closest<HTMLElement>('[role="region"]'),
  )
  // Told once it comes near the screen; where nothing can watch, at once.
  useEffect(() => {
    const element = ref.current
    if (!element || page.status !== 'waiting') return
    if (typeof IntersectionObserver === 'undefined') {
      pages.send({ type: 'page.visible', page: number })
      return
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) pages.send({ type: 'page.visible', page: number })
      },
      { rootMargin: '200px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [pages, number, page.status])
  const caption = `Page ${number} sur ${total}`
  return (
    <figure ref={ref} style={{ width }} data-page={number} data-status={page.status}>
      {url ? (
        <img src={url} alt={`${caption} du courrier de ${sender}`} />
      ) : (
        <div className="sheet">
          {page.status === 'failed' ? (
            <ErrorState
              message={page.error!}
              retryRef={retryButton}
              onRetry={() => {
                afterRetry()
                pages.send({ type: 'page.retry', page: number })
              }}
            />
          ) : (
            <Spinner label={`Chargement de la page ${number}…`} />
          )}
        </div>
      )}
      <figcaption>
        <Muted>{caption}</Muted>
      </figcaption>
    </figure>
  )
}
