// Vitest global setup: builds the `hsa` CLI once per test run, from the current source, with the build
// options of tsup.config.ts, so that the CLI tests run what `npm run build` ships (and start in a third of
// the CPU time tsx takes). The build goes to a fresh folder at the repository root, beside `dist/`, so that
// the CLI finds the bundled fixtures as it does from `dist/`; it is removed when the run ends.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Options } from 'tsup';
import type { TestProject } from 'vitest/node';
import configs from '../../tsup.config.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built `hsa` entry point of this test run (`<build>/cli/main.js`). */
    hsaCli: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

function cliConfig(): Options {
  const all = (Array.isArray(configs) ? configs : [configs]) as Options[];
  const found = all.find((config) => Object.keys(config.entry ?? {}).includes('cli/main'));
  if (!found) throw new Error('tsup.config.ts: no build with the entry "cli/main"');
  return found;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(root, '.test-build-'));
  // Source maps are left out: nothing in the tests reads them and Node ignores them without a flag.
  await build({ ...cliConfig(), config: false, outDir: folder, sourcemap: false, silent: true });
  project.provide('hsaCli', join(folder, 'cli', 'main.js'));
  return () => rm(folder, { recursive: true, force: true });
}
