// Small building blocks shared by every screen.
import { css, styled } from 'goober'
import type { ComponentProps, InputHTMLAttributes, ReactNode, Ref } from 'react'
import { color, mq, radius } from '../theme.ts'
import { frenchDateFormat } from '../../../server/contract/rules/french-date.ts'

export const Button = styled('button')<{ $variant?: 'primary' | 'secondary' | 'ghost' | 'danger' }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.5rem;
  min-height: 44px;
  padding: 0.55rem 1.1rem;
  border-radius: ${radius};
  border: 1px solid transparent;
  font-weight: 600;
  cursor: pointer;
  text-decoration: none;
  background: ${(p) =>
    p.$variant === 'secondary'
      ? color.surface
      : p.$variant === 'ghost'
        ? 'transparent'
        : p.$variant === 'danger'
          ? color.danger
          : color.primary};
  color: ${(p) => (p.$variant === 'secondary' || p.$variant === 'ghost' ? color.primary : '#fff')};
  border-color: ${(p) => (p.$variant === 'secondary' ? color.border : 'transparent')};
  &:hover:not(:disabled):not([aria-disabled='true']) { filter: brightness(0.95); }
  &:disabled, &[aria-disabled='true'] { opacity: 0.6; cursor: not-allowed; }
`

/**
 * A button whose call runs while it is pressed (outside a dialog, which keeps the focus itself): it stays focusable and
 * says it is unavailable (aria-disabled) rather than being disabled, which in Chrome drops the focus to <body> (a Tab
 * then starts again from the top of the page, and nothing gives it back). A press meanwhile does nothing, nor submits.
 */
export function BusyButton({ busy, onClick, ...props }: ComponentProps<typeof Button> & { busy: boolean }) {
  return <Button {...props} aria-disabled={busy || undefined} onClick={(event) => (busy ? event.preventDefault() : onClick?.(event))} />
}

export { IconButton } from './icon-button.ts'

/**
 * A link that stands on its own (a list's entry, 'Tous mes courriers'): on a phone, a 44 px tall target like the buttons.
 * A function, called when rendering: a css`` at a module's top level writes goober's sheet when the module is evaluated,
 * and esbuild's code splitting may evaluate this module's chunk before goober.ts (the entry imports its chunks in an
 * order of its own), so the sheet was made without the CSP nonce and every style blocked (found by the browser suite
 * once the flows were split per area). goober caches the class by its text: calling it at each render costs a lookup.
 */
export const touchLink = () => css`
  ${mq.mobile} { display: inline-flex; align-items: center; min-height: 44px; }
`

export const VisuallyHidden = styled('span')`
  position: absolute !important;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
`

export const Card = styled('section')`
  background: ${color.surface};
  border: 1px solid ${color.border};
  border-radius: ${radius};
  padding: 1.25rem;
`

const FieldBox = styled('div')`
  display: flex;
  flex-direction: column;
  gap: 0.35rem;
  margin-bottom: 1rem;
  label { font-weight: 600; }
  input, select, textarea {
    width: 100%;
    min-height: 44px;
    padding: 0.6rem 0.75rem;
    border: 1px solid ${color.border};
    border-radius: ${radius};
    background: ${color.surface};
    color: ${color.text};
  }
  input[aria-invalid='true'], textarea[aria-invalid='true'] { border-color: ${color.danger}; }
  small { color: ${color.muted}; }
`

export const FieldError = styled('p')`
  margin: 0;
  color: ${color.danger};
  font-size: 0.9rem;
`

/** A labelled control with its hint and error, wired for screen readers. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string
  label: string
  hint?: ReactNode
  error?: string | null
  children: ReactNode
}) {
  return (
    <FieldBox>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {error && (
        <FieldError id={`${id}-error`} role="alert">
          {error}
        </FieldError>
      )}
    </FieldBox>
  )
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>

/** A labelled text input whose error and hint are announced with it. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  describedBy,
  ...input
}: InputProps & {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string | null
  hint?: ReactNode
  /** Another element describing the input (e.g. a list of rules). */
  describedBy?: string
}) {
  const described = [error && `${id}-error`, hint && `${id}-hint`, describedBy].filter(Boolean).join(' ') || undefined
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={described}
        {...input}
      />
    </Field>
  )
}

export const Alert = styled('div')<{ $kind?: 'error' | 'info' | 'success' }>`
  padding: 0.75rem 1rem;
  border-radius: ${radius};
  margin-bottom: 1rem;
  background: ${(p) => (p.$kind === 'error' ? color.dangerSoft : p.$kind === 'success' ? '#e7f6ee' : color.primarySoft)};
  color: ${(p) => (p.$kind === 'error' ? color.danger : p.$kind === 'success' ? color.success : color.primaryDark)};
`

const SpinnerBox = styled('div')<{ $size: number }>`
  width: ${(p) => p.$size}px;
  height: ${(p) => p.$size}px;
  border: 3px solid ${color.primarySoft};
  border-top-color: ${color.primary};
  border-radius: 50%;
  animation: portal-spin 0.8s linear infinite;
`

export function Spinner({ size = 32, label = 'Chargement…' }: { size?: number; label?: string }) {
  return (
    <div role="status" aria-live="polite">
      <SpinnerBox $size={size} aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </div>
  )
}

export const Centered = styled('div')`
  min-height: 60vh;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 1rem;
  padding: 1.5rem;
  text-align: center;
`

const ErrorText = styled('p')`
  margin: 0 0 0.5rem;
`

/** A list or screen that failed: what happened, and 'Réessayer'. */
/** `retryRef`: where a retry that failed again puts the focus back (useFocusAfter). */
export function ErrorState({ message, onRetry, retryRef }: { message: string; onRetry?: () => void; retryRef?: Ref<HTMLButtonElement> }) {
  return (
    <Alert $kind="error" role="alert">
      <ErrorText>{message}</ErrorText>
      {onRetry && (
        <Button type="button" $variant="secondary" onClick={onRetry} ref={retryRef}>
          Réessayer
        </Button>
      )}
    </Alert>
  )
}

const dateFormat = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric' })
/** "12 mars 2024" (PRODUCT.md). */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso))

const euroFormat = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' })
/** "348,00 €" from an amount in cents (PRODUCT.md). */
export const formatEuros = (cents: number) => euroFormat.format(cents / 100)

/** The whole-page spinner while a page's code or the portal loads. */
export function PageSpinner({ label }: { label?: string } = {}) {
  return (
    <Centered>
      <Spinner size={40} {...(label ? { label } : {})} />
    </Centered>
  )
}

/** What a Suspense boundary shows while a screen's code loads (its own words: tests tell it from the startup's spinner). */
export const CODE_LOADING_LABEL = 'Chargement de la page…'
export const CodeLoading = () => <PageSpinner label={CODE_LOADING_LABEL} />
