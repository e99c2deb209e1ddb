// Types of what the TypeScript tests import from scripts/uvu-summary.mjs (test/server/test-runner.test.ts).
export const ON_S3: string
export function storageEnvFor(
  source: string,
  env: Record<string, string | undefined>,
  s3Url: string | undefined,
): Record<string, string | undefined>
