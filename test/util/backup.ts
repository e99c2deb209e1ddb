// The backups' and the move's tests: an API built on a database made elsewhere (restored, moved), as server/main.ts builds it.
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import type { DbHandle } from '../../server/db/connect.ts'
import type { AppDeps } from '../../server/deps.ts'
import { testPaymentProvider } from '../../server/services/payment.ts'
import type { Storage } from '../../server/services/storage.ts'
import { TEST_OPERATOR_TOKEN } from './server.ts'

export async function appOn(handle: DbHandle, storage: Storage): Promise<FastifyInstance> {
  const clock = { now: () => new Date() }
  const deps: AppDeps = {
    db: handle.db,
    storage,
    payments: testPaymentProvider(handle.db, clock.now),
    mailer: { send: async () => {} },
    config: { ...loadConfig({}), distDir: '/nonexistent', authRateLimit: 1000, operatorToken: TEST_OPERATOR_TOKEN },
    clock,
    listen: handle.listen,
    oneAtATime: handle.oneAtATime,
    ...(handle.dump ? { dumpDatabase: handle.dump } : {}),
  }
  const app = await buildApp(deps, { databaseKind: handle.kind })
  await app.ready()
  return app
}
