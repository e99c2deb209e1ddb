// The page kit every area uses: the portal data of the selected order (read with small selectors),
// the loading / empty / error states of a list, and the card, rows and badges of a page.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { NotificationKind } from '../../../server/contract/notifications.ts'
import type { ListStatus, portalDataMachine, PortalData, Resource } from '../../machines/session/portalData.machine.ts'
import { selectedOrder, type StartupContext } from '../../machines/session/startup.machine.ts'
import { type StartupRef, useStartup } from '../app-context.tsx'
import { Card, ErrorState, Spinner } from './ui.tsx'
import { headingOf, useFocusAfter } from './useFocusWhenShown.ts'
import { color, radius } from '../theme.ts'

export type PortalDataRef = ActorRefFrom<typeof portalDataMachine>
export type { ListStatus }
/** The list's items are on screen: loaded, being read again, or kept after that failed. */
export const isShown = (status: ListStatus) => status === 'loaded' || status === 'refreshing' || status === 'stale'

/** The startup actor and its `data` child (undefined until the portal is ready). */
export function usePortal(): { startup: StartupRef; data: PortalDataRef | undefined } {
  const startup = useStartup()!
  const data = useSelector(startup, (s) => s.children.data as PortalDataRef | undefined)
  return { startup, data }
}

/**
 * Calls `onNews` each time the bell tells of a new notification of this kind (a live one, or one found after the
 * stream was down), never on mount: a page with a list of its own reads it again.
 */
export function useNews(kind: NotificationKind, onNews: () => void) {
  const { data } = usePortal()
  const news = useSelector(data, (s) => s?.context.news[kind] ?? 0)
  const seen = useRef(news)
  const latest = useRef(onNews)
  latest.current = onNews
  useEffect(() => {
    if (news === seen.current) return
    seen.current = news
    latest.current()
  }, [news])
}

/** One list of the selected order's data, and where its loading stands. */
export function useResource<R extends Resource>(
  data: PortalDataRef | undefined,
  resource: R,
): { items: PortalData[R] | undefined; status: ListStatus; error: string | null } {
  const items = useSelector(data, (s) => s?.context[resource])
  const status = useSelector(
    data,
    (s) => (s?.value as { active?: Record<string, ListStatus> } | undefined)?.active?.[resource] ?? 'loading',
  )
  const error = useSelector(data, (s) => s?.context.errors[resource] ?? null)
  return { items, status, error }
}

export function useSelectedOrder(startup: StartupRef) {
  return useSelector(startup, (s) => selectedOrder(s.context as StartupContext))
}

export function useOrders(startup: StartupRef) {
  return useSelector(startup, (s) => (s.context as StartupContext).orders)
}

const EmptyText = styled('p')`
  margin: 0;
  padding: 1.5rem 0;
  color: ${color.muted};
  text-align: center;
`

/**
 * A list's other states: loading, failed with 'Réessayer', empty in words. Read again after news from
 * the server, it keeps its items (nothing jumps); if that fails, they stay under the reason and 'Réessayer'.
 */
export function ListState({
  status,
  error,
  empty,
  isEmpty,
  onRetry,
  label,
  children,
}: {
  status: ListStatus
  error: string | null
  empty: string
  isEmpty: boolean
  onRetry: () => void
  label: string
  children: ReactNode
}) {
  // 'Réessayer' goes with its alert: once the list is back, the focus goes to the page's heading; failed again, to the
  // new 'Réessayer'.
  const retryButton = useRef<HTMLButtonElement>(null)
  const page = useRef<Element | null>(null)
  const afterRetry = useFocusAfter(status !== 'loading' && status !== 'refreshing', () =>
    status === 'failed' || status === 'stale' ? retryButton.current : headingOf(page.current),
  )
  const retry = () => {
    page.current = retryButton.current?.closest('[aria-labelledby]') ?? null // before the button leaves the page
    afterRetry()
    onRetry()
  }
  if (status === 'loading') return <Spinner label={`Chargement : ${label}…`} />
  if (status === 'failed') return <ErrorState message={error ?? 'Le chargement a échoué.'} onRetry={retry} retryRef={retryButton} />
  const stale = status === 'stale' && (
    <ErrorState message={`Cette liste n’a pas pu être mise à jour. ${error ?? ''}`.trim()} onRetry={retry} retryRef={retryButton} />
  )
  return (
    <>
      {stale}
      {isEmpty ? <EmptyText>{empty}</EmptyText> : children}
    </>
  )
}

export const PageCard = styled(Card)`
  display: flex;
  flex-direction: column;
  gap: 1rem;
  h2 { margin: 0; font-size: 1.25rem; }
`

export const Rows = styled('ul')`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
`

export const Row = styled('li')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem 1rem;
  padding: 0.75rem 1rem;
  border: 1px solid ${color.border};
  border-radius: ${radius};
  background: ${color.surface};
  /* A long e-mail address or name wraps inside its row instead of widening the page (a flex item keeps its content's width otherwise). */
  > * { min-width: 0; overflow-wrap: anywhere; }
`

export const Muted = styled('span')`
  color: ${color.muted};
  font-size: 0.9rem;
`

export const Badge = styled('span')<{ $tone?: 'warning' | 'success' | 'danger' | 'neutral' }>`
  display: inline-block;
  padding: 0.15rem 0.6rem;
  border-radius: 999px;
  font-size: 0.85rem;
  font-weight: 600;
  background: ${(p) =>
    p.$tone === 'warning'
      ? color.accentSoft
      : p.$tone === 'success'
        ? '#e7f6ee'
        : p.$tone === 'danger'
          ? color.dangerSoft
          : color.primarySoft};
  color: ${(p) =>
    p.$tone === 'warning' ? '#7a5300' : p.$tone === 'success' ? color.success : p.$tone === 'danger' ? color.danger : color.primaryDark};
`

export const Toolbar = styled('div')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem;
`

/** 'Tous': each item says which company it belongs to. */
export const companyOf = (showCompany: boolean, raisonSociale: string) => (showCompany ? <Muted>{raisonSociale}</Muted> : null)

/** An object URL for a Blob while it is shown, revoked when it changes or goes. */
export function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!blob) {
      setUrl(null)
      return
    }
    const next = URL.createObjectURL(blob)
    setUrl(next)
    return () => URL.revokeObjectURL(next)
  }, [blob])
  return url
}
