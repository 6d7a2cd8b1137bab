// The crash test of `hsa augment`: SIGKILL a real run once part of it is checkpointed, run it again with
// --resume, and compare the rows and rejects with an uninterrupted run's, byte for byte.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hsaCli, projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

async function unitsDone(file: string): Promise<number> {
  try {
    return (JSON.parse(await readFile(file, 'utf8')) as { units: number }).units;
  } catch {
    return 0;
  }
}

describe('augment --resume', () => {
  it('a run killed with SIGKILL and resumed equals an uninterrupted run, byte for byte', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-augment-resume-'));
    const fixture = await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8');
    const lines = fixture.split('\n').slice(0, 24);
    // One bad line, so that the rejects file takes part too.
    lines.splice(5, 0, '{"id": "broken", "messages": [}');
    const trajectories = join(root, 'tasks.jsonl');
    await writeFile(trajectories, `${lines.join('\n')}\n`);
    const args = (out: string) => [
      'augment',
      '--harness',
      join(projectRoot, 'fixtures/livestream/harness.yaml'),
      '--trajectories',
      trajectories,
      '--variants',
      '2',
      '--seed',
      '7',
      '-o',
      out,
    ];
    const whole = join(root, 'whole.jsonl');
    expect((await hsa(args(whole))).status).toBe(1);

    const crashed = join(root, 'crashed.jsonl');
    const child = spawn(process.execPath, [hsaCli(), ...args(crashed)], {
      cwd: projectRoot,
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const checkpoint = `${crashed}.checkpoint.json`;
    while ((await unitsDone(checkpoint)) < 6) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(await unitsDone(checkpoint), 'the run finished before the kill').toBeLessThan(25);

    // The kill may land between a unit's append and its checkpoint: --resume cuts that tail off.
    const resumed = await hsa([...args(crashed), '--resume']);
    expect(resumed.status, resumed.stderr).toBe(1);
    expect(await sha256(crashed)).toBe(await sha256(whole));
    expect(await sha256(join(root, 'crashed.rejects.jsonl'))).toBe(
      await sha256(join(root, 'whole.rejects.jsonl')),
    );
    // The variants sidecar is appended under the same checkpoint: it too equals the whole run's.
    expect(await sha256(join(root, 'crashed.variants.jsonl'))).toBe(
      await sha256(join(root, 'whole.variants.jsonl')),
    );
    await expect(stat(checkpoint), 'a complete run leaves no checkpoint').rejects.toThrow();
    expect(resumed.stdout).toContain('read 25 trajectories: 24 augmented + 1 rejected');

    // Another input under the same --out is not resumed.
    await writeFile(trajectories, `${lines.slice(0, 10).join('\n')}\n`);
    await writeFile(
      checkpoint,
      JSON.stringify({ version: 1, runHash: 'other', units: 1, bytes: {}, state: {} }),
    );
    const mismatch = await hsa([...args(crashed), '--resume']);
    expect(mismatch.status).toBe(2);
    expect(mismatch.stderr).toMatch(/belongs to a run of other options or input/);
  });
});
