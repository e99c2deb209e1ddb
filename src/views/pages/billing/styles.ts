// The billing pages' shared pieces of layout.
import { styled } from 'goober'
import { color, mq, radius } from '../../theme.ts'

/** One order's block on a billing page. */
export const OrderBlock = styled('section')`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  padding: 1rem;
  border: 1px solid ${color.border};
  border-radius: ${radius};
  h3 { margin: 0; font-size: 1.1rem; }
  p { margin: 0; }
`

/** Label / value pairs, stacked on a phone, side by side on a desktop. */
export const Facts = styled('dl')`
  display: grid;
  gap: 0.35rem 1rem;
  margin: 0;
  ${mq.desktop} { grid-template-columns: max-content 1fr; }
  dt { color: ${color.muted}; }
  dd { margin: 0 0 0.4rem; font-weight: 600; }
  ${mq.desktop} { dd { margin: 0; } }
  ul { margin: 0; padding-left: 1.1rem; }
`

export const Actions = styled('div')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
`

export const Choices = styled('ul')`
  list-style: none;
  margin: 0 0 1rem;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
    padding: 0.75rem;
    border: 1px solid ${color.border};
    border-radius: ${radius};
  }
`
