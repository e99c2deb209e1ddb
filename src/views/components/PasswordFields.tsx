// A new password and its confirmation, with the rule shown as one types (src/machines/passwordRule.ts):
// the set-password screen, the password change and the invitation use this one piece. It loads the strength
// estimator when it is shown (its dictionaries are a chunk of their own), and estimates the latest password typed
// once typing leaves time for it (useDeferredValue): a slow phone never lags behind the keys.
import { styled } from 'goober'
import { useDeferredValue, useEffect, useId, useSyncExternalStore } from 'react'
import {
  MIN_PASSWORD_LENGTH,
  loadPasswordStrength,
  onPasswordStrengthReady,
  passwordChecks,
  passwordStrengthReady,
} from '../../machines/passwordRule.ts'
import { color } from '../theme.ts'
import { TextField } from './ui.tsx'

const Rules = styled('ul')`
  margin: -0.5rem 0 1rem;
  padding-left: 1.25rem;
  color: ${color.muted};
  li[data-ok='true'] { color: ${color.success}; }
`

export function PasswordFields({
  idPrefix,
  password,
  confirmation,
  onPassword,
  onConfirmation,
  passwordError,
  confirmationError,
  label = 'Nouveau mot de passe',
}: {
  idPrefix: string
  password: string
  confirmation: string
  onPassword: (value: string) => void
  onConfirmation: (value: string) => void
  passwordError?: string | null
  confirmationError?: string | null
  label?: string
}) {
  const rulesId = `${idPrefix}-rules${useId().replace(/:/g, '')}`
  useEffect(() => {
    void loadPasswordStrength()
  }, [])
  // Re-rendered when the estimator comes.
  useSyncExternalStore(onPasswordStrengthReady, passwordStrengthReady)
  const estimated = useDeferredValue(password)
  return (
    <>
      <TextField
        id={`${idPrefix}-password`}
        label={label}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPassword}
        error={passwordError}
        describedBy={rulesId}
        hint={`${MIN_PASSWORD_LENGTH} caractères au moins ; une phrase de plusieurs mots est facile à retenir et difficile à deviner.`}
      />
      <Rules id={rulesId} aria-label="Règles du mot de passe" aria-live="polite">
        {passwordChecks(estimated).map((rule) => (
          <li key={rule.label.slice(0, 12)} data-ok={rule.ok}>
            {rule.label}
            {rule.ok ? ' ✓' : ''}
          </li>
        ))}
      </Rules>
      <TextField
        id={`${idPrefix}-confirmation`}
        label="Confirmez le mot de passe"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={onConfirmation}
        error={confirmationError}
      />
    </>
  )
}
