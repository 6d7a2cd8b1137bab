import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Files that need a module graph of their own: those that replace a module (`vi.mock`), and those that count
// the work of a module-wide cache (a text another file already scanned would not be scanned again).
const isolated = [
  'test/harness/parse-json-text.test.ts',
  'test/trajectory/read-jsonl.test.ts',
  'test/harness/render-prompt-sections.test.ts',
  'test/harness/variant-holds.test.ts',
  'test/harness/json-schema-validator-cache.test.ts',
  'test/perturbations/content-keyed-caches.test.ts',
  'test/trajectory/relabel-scans.test.ts',
  'test/trajectory/validation-at-parse.test.ts',
  'test/augment/content-facts-cache.test.ts',
  'test/adapters/env-http-hostile.test.ts',
];

export default defineConfig({
  // `harness-augment`, `harness-augment/kit` and `/testing` by name resolve to the source through
  // tsconfig.json's `paths` (as tsc and tsx resolve them): examples import the package as a user does.
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ['test/support/fast-check-setup.ts'],
    // The CLI tests run the built `hsa`: built once per run from the current source.
    globalSetup: ['test/support/build-cli.ts'],
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
          // each file was a sixth of the suite's work (160 of 1,110 s on 2 cores). Module state a file
          // could see from another is bounded caches keyed by content, which give the same answers.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: isolated } },
    ],
  },
});
