// Listens, and closes gracefully on SIGINT/SIGTERM (Fastify first, then the database).
import { loadConfig } from './config.ts'
import { createServer } from './main.ts'
// mail pipeline: `npm run ingest` finds this server through DATA_DIR
import { writeServerFile } from './services/server-file.ts'

// A configuration refused (a French message saying what to set) ends the start without a stack trace.
const config = (() => {
  try {
    return loadConfig()
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
})()
const { app, close: closeServer, startBackground } = await createServer(config)
let forgetServerFile = async () => {}
const close = async () => {
  await forgetServerFile()
  await closeServer()
}

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'arrêt en cours')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'arrêt en erreur')
        process.exit(1)
      },
    )
  })
}

await app.listen({ port: config.port, host: config.host })
/** The port listened on (PORT=0: a free one); scripts/start.mjs prints it, a parent process gets it over IPC. */
export const port = (app.server.address() as { port: number }).port
/** Whether the demo accounts exist here (scripts/start.mjs lists them then). */
export const demo = config.seedDemo
if (!config.databaseUrl) {
  const host = ['0.0.0.0', '::', '127.0.0.1', 'localhost'].includes(config.host)
    ? '127.0.0.1'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host
  forgetServerFile = await writeServerFile(config.dataDir, { pid: process.pid, url: `http://${host}:${port}` })
}
process.send?.({ ready: true, port })
startBackground()
