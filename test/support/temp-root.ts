// Vitest global setup: one temporary folder for the whole test run. Every test and every process it starts
// (the CLI, servers, Python) makes its temporary files under it, through TMPDIR (and TEMP, TMP on
// Windows), which `os.tmpdir()` reads; the folder is removed when the run ends, so a run leaves nothing in
// the machine's temporary folder, whatever a test forgot to remove.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default async function setup(): Promise<() => Promise<void>> {
  // Each project of the config runs the global setups: the first one makes the folder.
  if (process.env.HSA_TEST_TEMP_ROOT) return async () => {};
  const root = await mkdtemp(join(tmpdir(), 'hsa-test-run-'));
  process.env.HSA_TEST_TEMP_ROOT = root;
  const before = { TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP };
  // Set before the workers start: they and their children inherit the environment.
  for (const name of ['TMPDIR', 'TEMP', 'TMP'] as const) process.env[name] = root;
  return async () => {
    delete process.env.HSA_TEST_TEMP_ROOT;
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
