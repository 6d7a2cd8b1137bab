// `hsa augment --workers 2` in a process started with V8 options (the documented way to set the heap growing
// factor, `node --heap-growing-percent=N hsa …`): a worker thread refuses V8 and per-process options in its
// execArgv (ERR_WORKER_INVALID_EXEC_ARGV), so the threads must not be handed the process's options as they
// are. The rows are those of one worker.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hsaCli, projectRoot } from '../support/run-cli.js';

let folder: string;
const fixture = join(projectRoot, 'fixtures/livestream');

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-workers-exec-argv-'));
  const lines = readFileSync(join(fixture, 'trajectories.jsonl'), 'utf8').split('\n').slice(0, 3);
  writeFileSync(join(folder, 'in.jsonl'), `${lines.join('\n')}\n`);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function augment(
  nodeOptions: string[],
  workers: number,
): { status: number | null; stderr: string; rows: string } {
  const out = join(folder, `${nodeOptions.join('_').replace(/[^a-z0-9]/giu, '')}-${workers}.jsonl`);
  const args = [
    'augment',
    '--harness',
    join(fixture, 'harness.yaml'),
    '--trajectories',
    join(folder, 'in.jsonl'),
  ];
  const run = spawnSync(
    process.execPath,
    [
      ...nodeOptions,
      hsaCli(),
      ...args,
      '--policy',
      'tools-only',
      '--variants',
      '2',
      '--seed',
      's',
      '--workers',
      String(workers),
      '--inline-harness',
      '--out',
      out,
    ],
    { cwd: projectRoot, encoding: 'utf8', timeout: 240_000 },
  );
  return { status: run.status, stderr: run.stderr, rows: run.status === 0 ? readFileSync(out, 'utf8') : '' };
}

describe('worker threads in a process started with V8 options', () => {
  it.each([[['--heap-growing-percent=20']], [['--max-semi-space-size=16', '--stack-trace-limit=20']]])(
    'node %s hsa augment --workers 2 runs and writes the rows of one worker',
    (nodeOptions) => {
      const two = augment(nodeOptions, 2);
      expect(two.stderr).not.toContain('ERR_WORKER_INVALID_EXEC_ARGV');
      expect(two.status).toBe(0);
      const one = augment(nodeOptions, 1);
      expect(one.status).toBe(0);
      expect(two.rows).toBe(one.rows);
      expect(two.rows.trimEnd().split('\n')).toHaveLength(6);
    },
  );
});
