// Headless Chromium for tests of HTML pages: where it is, and the DOM of a local page after it loaded,
// offline (no network, a fresh profile). CI installs it (.ci/run: apt-get install -y chromium).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The first Chromium found on the PATH (or $CHROMIUM), or undefined. */
export function findChromium(): string | undefined {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  return ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'].find(
    (name) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0,
  );
}

/** The serialised DOM of a local HTML file once loaded in headless Chromium. */
export function dumpDom(browser: string, file: string): string {
  const profile = mkdtempSync(join(tmpdir(), 'hsa-chromium-'));
  try {
    const run = spawnSync(
      browser,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-dev-shm-usage',
        `--user-data-dir=${profile}`,
        '--virtual-time-budget=3000',
        '--dump-dom',
        `file://${resolve(file)}`,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (run.status !== 0) throw new Error(`${browser} failed (${run.status}): ${run.stderr.slice(-2000)}`);
    return run.stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
