// `npm start` without tsx: scripts/start.ts (the job) is bundled once by tsup into `.start-build/` at the
// repository root (beside `dist/`, so the scenarios find their bundled fixtures as they do from there) and
// the bundle is run by plain Node. Through tsx every one of the job's ~300 modules is resolved and loaded
// through the loader's hooks thread, ~3.5 CPU-s before any work; the bundle loads in ~1 CPU-s. The bundle
// is rebuilt when any file it was built from (listed by esbuild's metafile, with its sha256) has changed,
// so it never runs stale code; the packages in node_modules are not bundled and load as they do under
// tsx. Plain JavaScript because it runs before anything can compile TypeScript.
import { createHash } from 'node:crypto';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
/** This file's own hash: a bundle built with other options than these is rebuilt too. */
const launcher = async () => sha256(await readFile(fileURLToPath(import.meta.url)));

/** Every input's sha256 still matches the stamp: the bundle is what the source builds. */
async function upToDate(root, stamp) {
  if (!stamp || typeof stamp.inputs !== 'object') return false;
  for (const [path, hash] of Object.entries(stamp.inputs)) {
    const content = await readFile(join(root, path)).catch(() => undefined);
    if (content === undefined || sha256(content) !== hash) return false;
  }
  return true;
}

/**
 * The path of `entry` (relative to `root`) bundled into `folder` (named after the entry, ending in
 * `extension`: `.mjs` unless told), built now unless the bundle there was built from the same bytes.
 * `built` says which.
 *
 * @example
 * const { file } = await bundledEntry({ root, entry: 'scripts/start.ts', folder: join(root, '.start-build') });
 * await import(pathToFileURL(file).href);
 */
export async function bundledEntry({ root, entry, folder, extension = '.mjs' }) {
  const stampFile = join(folder, 'inputs.json');
  const name = entry.replace(/^.*\//, '').replace(/\.ts$/, '');
  const file = join(folder, `${name}${extension}`);
  const stamp = await readFile(stampFile, 'utf8')
    .then((text) => JSON.parse(text))
    .catch(() => undefined);
  const present = await access(file).then(
    () => true,
    () => false,
  );
  if (
    present &&
    stamp?.entry === entry &&
    stamp.launcher === (await launcher()) &&
    (await upToDate(root, stamp))
  )
    return { file, built: false };
  const { build } = await import('tsup');
  await build({
    entry: { [name]: join(root, entry) },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    outDir: folder,
    // ESM whatever package.json around it says (`.js` only where the package is ESM).
    outExtension: () => ({ js: extension }),
    clean: true,
    config: false,
    silent: true,
    sourcemap: false,
    metafile: true,
    skipNodeModulesBundle: true,
    // The metafile names its inputs relative to this folder.
    esbuildOptions(options) {
      options.absWorkingDir = root;
    },
  });
  const meta = JSON.parse(await readFile(join(folder, 'metafile-esm.json'), 'utf8'));
  const inputs = {};
  for (const path of Object.keys(meta.inputs).sort()) inputs[path] = sha256(await readFile(join(root, path)));
  await writeFile(stampFile, `${JSON.stringify({ entry, launcher: await launcher(), inputs }, null, 2)}\n`);
  return { file, built: true };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { file } = await bundledEntry({
    root,
    entry: 'scripts/start.ts',
    folder: join(root, '.start-build'),
  });
  await import(pathToFileURL(file).href);
}
