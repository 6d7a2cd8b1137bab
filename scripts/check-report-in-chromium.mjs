// Opens an HTML report in headless Chromium, offline, and checks that its script finished without error:
// <body data-ready="1">, no data-error, and the expected number of <svg> charts.
//   node scripts/check-report-in-chromium.mjs REPORT.html [EXPECTED_SVG_COUNT]   (default 4)
//   node scripts/check-report-in-chromium.mjs --dom PAGE.html   (prints the page's DOM once loaded)
// Exit 0 when it holds; 1 when the check fails; 2 for a usage error or when no browser can be had.
//
// The browser is the one the devDependency `@sparticuz/chromium` ships inside its npm tarball (a brotli-
// compressed Chromium headless shell with the NSS libraries it needs), unpacked on first use into
// `node_modules/.cache/harness-augment-chromium/<version>/`: `npm install && npm test` needs nothing from the
// machine but Linux x64 and `tar`. `CHROMIUM=/path/to/chrome` uses another browser instead. The page is driven
// through the DevTools protocol over a pipe (`--remote-debugging-pipe`), not `--dump-dom`, which that build
// never returns from. Plain JavaScript so that it runs without a build.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';

const fail = (code, message) => {
  process.stderr.write(`check-report: ${message}\n`);
  process.exit(code);
};

/** The shipped browser, unpacked once per package version; `libraries` goes on LD_LIBRARY_PATH. */
function shippedChromium() {
  // The package ships a Linux x64 build only; elsewhere set CHROMIUM.
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const require = createRequire(import.meta.url);
  let entry;
  try {
    entry = require.resolve('@sparticuz/chromium');
  } catch {
    return undefined;
  }
  // The package's own package.json (its build folders hold `{ "type": … }` ones of their own).
  let root = dirname(entry);
  const manifest = (folder) =>
    existsSync(join(folder, 'package.json'))
      ? JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
      : {};
  while (manifest(root).name !== '@sparticuz/chromium') {
    if (dirname(root) === root) return undefined;
    root = dirname(root);
  }
  const { version } = manifest(root);
  const bin = join(root, 'bin');
  const projectRoot = resolve(dirname(new URL(import.meta.url).pathname), '..');
  const folder = join(projectRoot, 'node_modules', '.cache', 'harness-augment-chromium', version);
  const executable = join(folder, 'chromium');
  if (!existsSync(join(folder, 'complete'))) {
    // Unpacked beside the final folder and renamed into place, so that a run cut short leaves nothing half-done.
    const staging = `${folder}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'chromium'), brotliDecompressSync(readFileSync(join(bin, 'chromium.br'))), {
      mode: 0o755,
    });
    for (const archive of ['al2023.tar.br', 'fonts.tar.br']) {
      const untar = spawnSync('tar', ['-x', '-C', staging], {
        input: brotliDecompressSync(readFileSync(join(bin, archive))),
        maxBuffer: 1 << 30,
      });
      if (untar.status !== 0) fail(2, `could not unpack ${archive}: ${untar.stderr}`);
    }
    writeFileSync(join(staging, 'complete'), `${version}\n`);
    rmSync(folder, { recursive: true, force: true });
    try {
      renameSync(staging, folder);
    } catch {
      // Another process unpacked the same version first.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return { executable, libraries: join(folder, 'lib'), fonts: join(folder, 'fonts') };
}

/** One DevTools protocol session over the browser's pipe (fd 3 it reads, fd 4 it writes, NUL-separated). */
function devtools(child) {
  let nextId = 1;
  let buffer = '';
  const waiting = new Map();
  child.stdio[4].on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    let end = buffer.indexOf('\0');
    while (end >= 0) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      const pending = waiting.get(message.id);
      if (pending) {
        waiting.delete(message.id);
        if (message.error) pending.reject(new Error(`${pending.method}: ${message.error.message}`));
        else pending.resolve(message.result);
      }
      end = buffer.indexOf('\0');
    }
  });
  return (method, params = {}, sessionId) =>
    new Promise((resolvePromise, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolvePromise, reject, method });
      child.stdio[3].write(
        `${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`,
      );
    });
}

const domMode = process.argv[2] === '--dom';
const [reportArgument, expectedArgument = '4', ...rest] = process.argv.slice(domMode ? 3 : 2);
if (!reportArgument || rest.length > 0)
  fail(2, 'usage: check-report-in-chromium.mjs REPORT.html [EXPECTED_SVG_COUNT]');
const report = resolve(reportArgument);
if (!existsSync(report)) fail(2, `no such file: ${reportArgument}`);
const expected = Number(expectedArgument);

const shipped = process.env.CHROMIUM ? undefined : shippedChromium();
const executable = process.env.CHROMIUM ?? shipped?.executable;
if (!executable)
  fail(
    2,
    'no browser: install the devDependencies (npm install; the shipped build is Linux x64 only), or set CHROMIUM=/path/to/chrome',
  );

const profile = await mkdtemp(join(tmpdir(), 'hsa-check-report-'));
const environment = { ...process.env };
if (shipped) {
  environment.LD_LIBRARY_PATH = [shipped.libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  environment.FONTCONFIG_PATH = shipped.fonts;
}
const child = spawn(
  executable,
  [
    '--headless=shell',
    '--no-sandbox',
    '--no-zygote',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--remote-debugging-pipe',
    `--user-data-dir=${profile}`,
    'about:blank',
  ],
  { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], env: environment },
);
let stderr = '';
child.stderr.on('data', (chunk) => {
  stderr = (stderr + chunk.toString('utf8')).slice(-4000);
});
const finish = (code, lines) => {
  child.kill('SIGKILL');
  rmSync(profile, { recursive: true, force: true });
  for (const line of lines) (code === 0 ? process.stdout : process.stderr).write(`${line}\n`);
  process.exit(code);
};
child.on('error', (error) => finish(2, [`check-report: could not start ${executable}: ${error.message}`]));
child.on('exit', (code) => finish(1, [`check-report: ${executable} exited (${code}):`, stderr]));
setTimeout(
  () => finish(1, [`check-report: ${report}: no answer from the browser in 60 s`, stderr]),
  60_000,
).unref();

const send = devtools(child);
const { targetId } = await send('Target.createTarget', { url: pathToFileURL(report).href });
const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
const probe = `(() => { const body = document.body; return { state: document.readyState,
  ready: body?.dataset.ready ?? null, error: body?.dataset.error ?? null, charts: document.querySelectorAll('svg').length,
  file: location.protocol === 'file:' }; })()`;
let page;
// The report's script runs once on load; wait for the load, then a little for anything it schedules.
for (let attempt = 0; attempt < 100; attempt++) {
  const { result } = await send('Runtime.evaluate', { expression: probe, returnByValue: true }, sessionId);
  page = result.value ?? page;
  if (
    page?.state === 'complete' &&
    ((domMode && page.file) || page.ready !== null || page.error !== null || attempt >= 20)
  )
    break;
  await new Promise((done) => setTimeout(done, 100));
}
if (domMode) {
  const { result } = await send(
    'Runtime.evaluate',
    { expression: 'document.documentElement.outerHTML', returnByValue: true },
    sessionId,
  );
  if (typeof result.value !== 'string') finish(1, [`check-report: ${report}: could not read the page's DOM`]);
  finish(0, [result.value]);
}
const failures = [];
if (page.ready !== '1')
  failures.push(`the page script did not finish: no data-ready="1" on <body> (got: ${page.ready})`);
if (page.error !== null) failures.push(`the page recorded an error: data-error="${page.error}"`);
if (page.charts !== expected) failures.push(`expected ${expected} <svg> charts, found ${page.charts}`);
if (failures.length > 0)
  finish(
    1,
    failures.map((failure) => `check-report: ${report}: ${failure}`),
  );
finish(0, [`check-report: ${report}: ok (ready, no error, ${page.charts} charts) in ${executable}`]);
