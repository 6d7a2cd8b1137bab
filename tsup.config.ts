import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'testing/index': 'src/testing/index.ts',
      'kit/index': 'src/kit/index.ts',
      'bench/index': 'src/bench/index.ts',
      'runtime/index': 'src/runtime/index.ts',
      'scenarios/index': 'src/scenarios/index.ts',
      'pipeline/index': 'src/pipeline/index.ts',
      'adapters/index': 'src/adapters/index.ts',
      'demo/index': 'src/demo/index.ts',
    },
    external: ['fast-check'],
    format: ['esm', 'cjs'],
    // `import.meta.url` in the CommonJS build (the scenarios find their bundled fixtures from it).
    shims: true,
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
  },
  {
    // The CLI is ESM only; it is an executable, not an import target.
    entry: {
      'cli/main': 'src/cli/main.ts',
      'workers/augment-worker': 'src/pipeline/parallel/augment-worker.ts',
    },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
