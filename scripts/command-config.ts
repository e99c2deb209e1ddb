// The server's configuration, read by a command (backup, restore, db:move): a refused variable is told in French, with
// no stack trace, and the command ends with exit code 1.
import { type Config, loadConfig } from '../server/config.ts'

export function commandConfig(env: NodeJS.ProcessEnv, out: Pick<Console, 'error'>): Config | null {
  try {
    return loadConfig(env)
  } catch (error) {
    out.error(error instanceof Error ? error.message : String(error))
    return null
  }
}
