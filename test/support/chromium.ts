// Headless Chromium for tests of HTML pages: the DOM of a local page after it loaded, offline (no network, a
// fresh profile), in the browser the project's own devDependency ships.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The serialised DOM of a local HTML file once loaded in headless Chromium: the browser the devDependency
 * `@sparticuz/chromium` ships (or `$CHROMIUM`), driven by scripts/check-report-in-chromium.mjs.
 */
export function dumpDom(file: string): string {
  const run = spawnSync(
    process.execPath,
    [resolve('scripts/check-report-in-chromium.mjs'), '--dom', resolve(file)],
    { encoding: 'utf8', timeout: 90_000, maxBuffer: 64 << 20 },
  );
  if (run.status !== 0)
    throw new Error(`headless Chromium failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return run.stdout;
}
