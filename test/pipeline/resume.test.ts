// The crash test of the pipeline: SIGKILL a real `hsa pipeline run` mid-run, run it again with --resume, and
// compare every output file with an uninterrupted run's, byte for byte.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hsaCli, projectRoot, runCli } from '../support/run-cli.js';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
    ),
  );
  return files.flat().sort();
}

async function digest(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const file of await filesUnder(dir))
    result[relative(dir, file)] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  return result;
}

async function unitsDone(dir: string): Promise<number> {
  try {
    return (JSON.parse(await readFile(join(dir, 'checkpoint.json'), 'utf8')) as { units: number }).units;
  } catch {
    return 0;
  }
}

describe('pipeline resume', () => {
  it('a run killed with SIGKILL and resumed equals an uninterrupted run, byte for byte', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-resume-'));
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
        'collapse: { keepShare: 0.2 }',
        'exports: [trl, llama-factory, openai, verl]',
        'out: unused',
        'concurrency: 4',
        '',
      ].join('\n'),
    );
    const whole = join(root, 'whole');
    const first = runCli(['pipeline', 'run', config, '--out', whole], { timeout: 420_000 });
    expect(first.status, first.stderr).toBe(0);

    const crashed = join(root, 'crashed');
    const child = spawn(process.execPath, [hsaCli(), 'pipeline', 'run', config, '--out', crashed], {
      cwd: projectRoot,
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // Kill once part of the work is checkpointed, well before the end (80 tasks × 5 units).
    while ((await unitsDone(crashed)) < 60) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const units = await unitsDone(crashed);
    expect(units, 'the run finished before the kill').toBeLessThan(400);
    await expect(stat(join(crashed, 'manifest.json'))).rejects.toThrow();
    // The killed run's lock stays behind, naming a process that is gone: the resume takes it over.
    expect(JSON.parse(await readFile(join(crashed, 'run.lock'), 'utf8')).pid).toBe(child.pid);
    // A kill between a unit's append and its checkpoint leaves lines no checkpoint counts: emulate it.
    await appendFile(join(crashed, 'examples.jsonl'), '{"id":"torn/0","messages":[{"role":"sys');

    const resumed = runCli(['pipeline', 'run', config, '--out', crashed, '--resume'], { timeout: 420_000 });
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(
      new RegExp(`run\\.lock: taking over the lock of a run that is gone \\(pid ${child.pid} on `),
    );
    const expected = await digest(whole);
    expect(Object.keys(expected)).toContain('exports/verl/train.parquet');
    expect(await digest(crashed)).toEqual(expected);

    const ids = (await readFile(join(crashed, 'examples.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
    const manifest = JSON.parse(await readFile(join(crashed, 'manifest.json'), 'utf8'));
    expect(manifest.counts.units).toBe(400);
    expect(manifest.counts.examples + manifest.counts.rejected).toBe(400);
    expect(ids.length).toBe(manifest.counts.examples);
  }, 900_000);
});
