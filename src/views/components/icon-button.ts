// The round 44 px button of icons (menu, close, bell). Its own module, without a top-level css call: a lazy chunk
// (the toasts) may import it without making goober's sheet before goober.ts sets the CSP nonce (ui.tsx's touchLink would).
import { styled } from 'goober'

const box = `
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  flex-shrink: 0;
`

export const IconButton = styled('button')`
  ${box}
  border-radius: 50%;
  border: none;
  background: transparent;
  color: inherit;
  cursor: pointer;
  &:hover { background: rgba(0, 0, 0, 0.06); }
`

/** The same box, holding a button's place while its code loads (the bell, Header.tsx): nothing moves when it comes. */
export const IconPlace = styled('span')`
  ${box}
`
