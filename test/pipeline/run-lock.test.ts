// One run per output folder: the lock a pipeline run holds on its folder, refused to a second start (which
// is told who holds it), taken over from a holder that is gone, and released on SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { lockRunFolder, type RunLockHolder, runLockFile } from '../../src/pipeline/run-lock.js';
import { hsaArgv, projectRoot, runCli } from '../support/run-cli.js';

/** The pid of a process that has ended (so no process of this host has it, for a while). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

async function unitsDone(dir: string): Promise<number> {
  try {
    return (JSON.parse(await readFile(join(dir, 'checkpoint.json'), 'utf8')) as { units: number }).units;
  } catch {
    return 0;
  }
}

describe('lockRunFolder', () => {
  it('refuses a second lock on the folder, naming the holder, until the first is released', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hsa-lock-'));
    const lock = await lockRunFolder(folder);
    const error = await lockRunFolder(folder).catch((caught: unknown) => caught);
    expect(HarnessAugmentError.isInstance(error) && error.kind).toBe('usage');
    expect((error as Error).message).toContain(
      `another run writes to this output folder (pid ${process.pid} on ${hostname()}, started ${lock.holder.started}`,
    );
    await lock.release();
    await expect(stat(join(folder, runLockFile))).rejects.toThrow();
    const again = await lockRunFolder(folder);
    await again.release();
  });

  it('takes over the lock of a holder that is gone, and says so', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hsa-lock-'));
    const stale: RunLockHolder = { pid: deadPid(), host: hostname(), started: '2026-01-01T00:00:00.000Z' };
    await writeFile(join(folder, runLockFile), `${JSON.stringify(stale)}\n`);
    const told: RunLockHolder[] = [];
    const lock = await lockRunFolder(folder, { onStale: (holder) => told.push(holder) });
    expect(told).toEqual([stale]);
    expect(JSON.parse(await readFile(join(folder, runLockFile), 'utf8'))).toEqual(lock.holder);
    await lock.release();
  });

  it('of two starts that find the same stale lock, exactly one takes it', async () => {
    const stale: RunLockHolder = { pid: deadPid(), host: hostname(), started: '2026-01-01T00:00:00.000Z' };
    for (let trial = 0; trial < 20; trial++) {
      const folder = await mkdtemp(join(tmpdir(), 'hsa-lock-race-'));
      await writeFile(join(folder, runLockFile), `${JSON.stringify(stale)}\n`);
      const results = await Promise.allSettled([lockRunFolder(folder), lockRunFolder(folder)]);
      const taken = results.filter((result) => result.status === 'fulfilled');
      expect(taken.length, `trial ${trial}`).toBe(1);
      const refused = results.find((result) => result.status === 'rejected');
      expect(String(refused?.reason)).toMatch(/another run writes to this output folder/);
      const lock = (taken[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof lockRunFolder>>>).value;
      expect(JSON.parse(await readFile(join(folder, runLockFile), 'utf8'))).toEqual(lock.holder);
      await lock.release();
    }
  });

  // A lock written in two steps (created, then filled) was once read empty by a start that lost the race:
  // "a file that names no holder; remove it", said of a lock a live run held. A thread reads the lock file
  // the whole time, in parallel: it never finds it there but not yet written.
  it('of many starts at once, one takes the lock, every other names it as held, and no one reads it half written', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hsa-lock-many-'));
    const file = join(folder, runLockFile);
    const reader = new Worker(
      `const { readFileSync } = require('node:fs');
       const { parentPort, workerData } = require('node:worker_threads');
       let stop = false; const seen = [];
       parentPort.on('message', () => { stop = true; });
       (function loop() {
         for (let i = 0; i < 2000; i++) {
           try { const text = readFileSync(workerData, 'utf8'); if (!text.endsWith('}\\n')) seen.push(text); } catch {}
         }
         if (stop) parentPort.postMessage(seen); else setImmediate(loop);
       })();`,
      { eval: true, workerData: file },
    );
    for (let trial = 0; trial < 40; trial++) {
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => lockRunFolder(folder)));
      const taken = results.filter((result) => result.status === 'fulfilled');
      expect(taken.length, `trial ${trial}`).toBe(1);
      for (const result of results)
        if (result.status === 'rejected')
          expect(String(result.reason), `trial ${trial}`).toMatch(/another run writes to this output folder/);
      await (taken[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof lockRunFolder>>>).value.release();
    }
    const halfWritten = await new Promise<string[]>((resolve) => {
      reader.once('message', resolve);
      reader.postMessage('stop');
    });
    await reader.terminate();
    expect(halfWritten).toEqual([]);
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses a lock held on another host (it cannot be checked), saying how to clear it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hsa-lock-'));
    const other: RunLockHolder = {
      pid: deadPid(),
      host: `not-${hostname()}`,
      started: '2026-01-01T00:00:00.000Z',
    };
    await writeFile(join(folder, runLockFile), `${JSON.stringify(other)}\n`);
    await expect(lockRunFolder(folder)).rejects.toThrow(
      new RegExp(`pid ${other.pid} on not-.*; if that run is gone, remove .*run\\.lock`),
    );
  });
});

describe('hsa pipeline run: one run per output folder', () => {
  it('a second start on a running folder exits 2 naming the holder; SIGTERM releases the lock', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-lock-run-'));
    const fixture = await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8');
    await writeFile(join(root, 'tasks.jsonl'), `${fixture.split('\n').slice(0, 80).join('\n')}\n`);
    const config = join(root, 'pipeline.yaml');
    await writeFile(
      config,
      [
        `harness: ${join(projectRoot, 'fixtures/livestream/harness.yaml')}`,
        'inputs: { trajectories: tasks.jsonl }',
        'seed: 7',
        'augment: { policy: hat, variants: 4 }',
        'exports: [trl]',
        'out: unused',
        'concurrency: 1',
        '',
      ].join('\n'),
    );
    const out = join(root, 'out');
    const child = spawn(process.execPath, hsaArgv(['pipeline', 'run', config, '--out', out]), {
      cwd: projectRoot,
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    while ((await unitsDone(out)) < 5) await new Promise((resolve) => setTimeout(resolve, 10));

    const second = runCli(['pipeline', 'run', config, '--out', out, '--resume'], { timeout: 120_000 });
    expect(second.status, second.stderr).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `^hsa: .*out: another run writes to this output folder \\(pid ${child.pid} on ${hostname()}, started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; lock .*run\\.lock\\)`,
      ),
    );
    expect(await unitsDone(out), 'the run finished before the second start').toBeLessThan(400);

    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    await expect(stat(join(out, runLockFile))).rejects.toThrow();
  }, 240_000);
});
