// The test runner's choice of store per file (scripts/uvu-summary.mjs, used by scripts/run-tests.mjs and by each shared
// test process, scripts/test-worker.mjs): under with-s3.sh only the files marked ON_S3 get STORAGE_URL.
// tests: the embedded database only (no database at all; left out of the PostgreSQL run)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ON_S3, storageEnvFor } from '../../scripts/uvu-summary.mjs'

const test = suite('the store of each test file')
const s3 = 's3://portail-test?endpoint=http://127.0.0.1:9000'

test('a marked file gets the run’s S3 server, even after an unmarked one in the same process', () => {
  const env: Record<string, string | undefined> = { STORAGE_URL: s3, OTHER: 'x' }
  storageEnvFor('// a file that reads STORAGE_DIR itself', env, s3)
  assert.is(env.STORAGE_URL, undefined, 'an unmarked file runs on the directory store')
  assert.is(env.OTHER, 'x')
  storageEnvFor(`// ${ON_S3} (…)`, env, s3)
  assert.is(env.STORAGE_URL, s3)
})

test('without an S3 server, nothing changes', () => {
  const env: Record<string, string | undefined> = { OTHER: 'x' }
  storageEnvFor(`// ${ON_S3}`, env, undefined)
  assert.equal(env, { OTHER: 'x' })
})

test.run()
