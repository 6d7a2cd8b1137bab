// The `prepare` script: builds dist/ (`npm run build`) unless it was built from the same sources.
//   node scripts/prepare.mjs           build when dist/ is missing or any input changed (npm install, npx)
//   node scripts/prepare.mjs --stamp   record the inputs dist/ was just built from (the end of `npm run build`)
//
// Why a prepare script: a clone has no dist/, and both `npx hsa` and a git dependency run the package's built
// files. npm runs `prepare` after `npm install` in a clone, when a git dependency is installed, and once more
// when `npx hsa` first links the clone into npx's cache (npm 11 runs a project's own bin that way). That second
// run, and every `npm install` after the first, finds the stamp equal and costs a hash of the sources instead
// of a full build (~1 CPU-min). Plain JavaScript because it runs before anything can compile TypeScript.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = join(root, 'dist', '.build-inputs.sha256');
/** What the build reads: sources, operators, the fixtures the scenarios bundle, and the build's own config. */
const inputs = [
  'src',
  'perturbations',
  'fixtures',
  'scripts/write-testing-entry.ts',
  'tsup.config.ts',
  'tsconfig.json',
  'package.json',
];

function inputsHash() {
  const paths = [];
  for (const path of inputs) {
    const absolute = join(root, path);
    if (!existsSync(absolute)) continue;
    if (!statSync(absolute).isDirectory()) paths.push(path);
    else
      for (const entry of readdirSync(absolute, { withFileTypes: true, recursive: true }))
        if (entry.isFile()) paths.push(relative(root, join(entry.parentPath ?? entry.path, entry.name)));
  }
  const hash = createHash('sha256');
  // Sorted, so that the order of a directory listing never changes the hash.
  for (const path of paths.sort()) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(root, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

if (process.argv.includes('--stamp')) {
  writeFileSync(stampFile, `${inputsHash()}\n`);
} else {
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : undefined;
  if (stamp !== undefined && existsSync(join(root, 'dist', 'cli', 'main.js')) && stamp === inputsHash()) {
    process.stdout.write('prepare: dist/ is up to date with the sources\n');
  } else {
    process.stdout.write('prepare: building dist/ (npm run build)\n');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exit(build.status ?? 1);
  }
}
