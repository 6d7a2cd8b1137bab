import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/fast-check-setup.ts'],
    // The CLI tests run the built `hsa`: built once per run from the current source.
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (cores − 1) runs one file at a time on a 2-core CI machine, while many files spend
    // their time waiting on the CLI processes and servers they start: two at a time there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
