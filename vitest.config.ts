import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Files that need a module graph of their own: those that replace a module (`vi.mock`).
const isolated = ['test/harness/parse-json-text.test.ts', 'test/trajectory/read-jsonl.test.ts'];

export default defineConfig({
  // `harness-augment`, `harness-augment/kit` and `/testing` by name resolve to the source through
  // tsconfig.json's `paths` (as tsc and tsx resolve them): examples import the package as a user does.
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ['test/support/fast-check-setup.ts'],
    // The CLI tests run the built `hsa`: built once per run from the current source.
    // One temporary folder for the run (removed at its end), then the CLI the tests run.
    globalSetup: ['test/support/temp-root.ts', 'test/support/build-cli.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (cores − 1) runs one file at a time on a 2-core CI machine, while many files spend
    // their time waiting on the CLI processes and servers they start: two at a time there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: isolated,
          // A worker process runs file after file with the modules it loaded: importing them again for
          // each file was a sixth of the suite's work (160 of 1,110 s on 2 cores). What a run derives
          // lives in its run context; module caches hold pure functions of content (a file that counts
          // their work uses content of its own).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: isolated } },
    ],
  },
});
