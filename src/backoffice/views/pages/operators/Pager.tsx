// « Page précédente » / « Page suivante » under a paginated list (the Clients search, the journal): shown when there
// is more than one page, each button disabled at its end and while the list loads.
import { Button } from '../../../../views/components/ui.tsx'
import { Inline } from './admin.styles.ts'

export function Pager({
  label,
  page,
  pages,
  loading,
  go,
}: {
  label: string
  page: number
  pages: number
  loading: boolean
  go(page: number): void
}) {
  if (pages <= 1) return null
  return (
    <nav aria-label={label}>
      <Inline>
        <Button type="button" $variant="secondary" disabled={page <= 1 || loading} onClick={() => go(page - 1)}>
          Page précédente
        </Button>
        <Button type="button" $variant="secondary" disabled={page >= pages || loading} onClick={() => go(page + 1)}>
          Page suivante
        </Button>
      </Inline>
    </nav>
  )
}
