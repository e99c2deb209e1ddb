// cluster: INSTANCE_NAME names the process in X-Instance (the cluster test tells the instances apart by it).
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { loadConfig } from '../../server/config.ts'
import { buildTestApp } from '../util/server.ts'

test('INSTANCE_NAME is read from the environment, unset or blank is none', () => {
  assert.is(loadConfig({ INSTANCE_NAME: ' api2 ' }).instanceName, 'api2')
  assert.is(loadConfig({ INSTANCE_NAME: ' ' }).instanceName, undefined)
  assert.is(loadConfig({}).instanceName, undefined)
})

test('with a name, every reply says which instance answered, errors included', async () => {
  const t = await buildTestApp({ seed: false, config: { instanceName: 'api2' } })
  try {
    assert.is((await t.app.inject({ method: 'GET', url: '/health' })).headers['x-instance'], 'api2')
    const refused = await t.app.inject({ method: 'GET', url: '/api-protected/my-domiciliation-orders' })
    assert.is(refused.statusCode, 401)
    assert.is(refused.headers['x-instance'], 'api2')
  } finally {
    await t.close()
  }
})

test('without a name, no X-Instance header', async () => {
  const t = await buildTestApp({ seed: false })
  try {
    assert.is((await t.app.inject({ method: 'GET', url: '/health' })).headers['x-instance'], undefined)
  } finally {
    await t.close()
  }
})

test.run()
