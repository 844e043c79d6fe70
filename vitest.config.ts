import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
