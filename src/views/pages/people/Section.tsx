// One titled part of a people page (a card with its heading).
import type { ReactNode } from 'react'
import { PageCard } from '../../components/page.tsx'

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <PageCard aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </PageCard>
  )
}
