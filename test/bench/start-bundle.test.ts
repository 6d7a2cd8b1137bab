import { execFile } from 'node:child_process';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript (it runs before anything compiles TypeScript), no declarations.
import { bundledEntry } from '../../scripts/start.mjs';

const run = promisify(execFile);
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

type Bundled = (options: { root: string; entry: string; folder: string }) => Promise<{
  file: string;
  built: boolean;
}>;
const bundle = bundledEntry as Bundled;

/** A project with an entry that prints what a second module exports. */
async function project(greeting: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'start-bundle-'));
  folders.push(root);
  await writeFile(join(root, 'main.ts'), "import { greeting } from './lib.js';\nconsole.log(greeting);\n");
  await writeFile(join(root, 'lib.ts'), `export const greeting: string = '${greeting}';\n`);
  return root;
}

describe("npm start's bundle (scripts/start.mjs)", () => {
  it('bundles a TypeScript entry that plain Node runs, and reuses it while its inputs are unchanged', async () => {
    const root = await project('hello');
    const options = { root, entry: 'main.ts', folder: join(root, '.start-build') };
    const first = await bundle(options);
    expect(first.built).toBe(true);
    expect((await run(process.execPath, [first.file])).stdout).toBe('hello\n');
    const second = await bundle(options);
    expect(second).toEqual({ file: first.file, built: false });
  }, 120_000);

  it('rebuilds when any file the bundle was built from changed, so it never runs stale code', async () => {
    const root = await project('hello');
    const options = { root, entry: 'main.ts', folder: join(root, '.start-build') };
    await bundle(options);
    // An imported module, not the entry: the stamp covers every input of the bundle.
    await writeFile(join(root, 'lib.ts'), "export const greeting: string = 'changed';\n");
    const again = await bundle(options);
    expect(again.built).toBe(true);
    expect((await run(process.execPath, [again.file])).stdout).toBe('changed\n');
  }, 120_000);

  it('rebuilds when the bundle itself is gone, whatever the stamp says', async () => {
    const root = await project('hello');
    const options = { root, entry: 'main.ts', folder: join(root, '.start-build') };
    const { file } = await bundle(options);
    await unlink(file);
    const again = await bundle(options);
    expect(again.built).toBe(true);
    expect((await run(process.execPath, [again.file])).stdout).toBe('hello\n');
  }, 120_000);
});
