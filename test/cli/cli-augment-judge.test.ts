// `hsa augment --judge`: a meaning judge on a loopback endpoint refuses rows (they go to the rejects file
// with its reason, and read = written + rejected still holds), each changed text is asked once (the calls
// are the verdict lines, fewer than the texts judged), an interrupted run resumes without asking again and
// ends with the bytes of an uninterrupted one, and a bad configuration is one located line, exit 2.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { hsa } from '../support/run-hsa.js';

const fixture = new URL('../../fixtures/livestream/', import.meta.url).pathname;
let folder: string;
let server: FakeOpenAIServer;
let trajectories: string;
let judgeFile: string;
/** When set, requests from this count on fail with a 500 (the client does not retry). */
let failFrom: number | undefined;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-augment-judge-'));
  server = await startFakeOpenAIServer({
    // The judge refuses every reworded hook message and keeps every other text.
    respond: (request) => {
      const question = String(request.messages.at(-1)?.content ?? '');
      const refuse = question.startsWith('Part: hook ');
      return {
        content: JSON.stringify({
          same: !refuse,
          reason: refuse ? 'the feedback no longer names the rule that failed' : 'same rules',
        }),
      };
    },
    faults: (index) => (failFrom !== undefined && index >= failFrom ? { status: 500 } : 'ok'),
  });
  trajectories = join(folder, 'trajectories.jsonl');
  const lines = readFileSync(join(fixture, 'trajectories.jsonl'), 'utf8').split('\n').slice(0, 8);
  writeFileSync(trajectories, `${lines.join('\n')}\n`);
  judgeFile = join(folder, 'judge.yaml');
  writeFileSync(
    judgeFile,
    [
      'endpoint:',
      `  baseURL: ${server.url}`,
      '  model: judge-model',
      '  maxRetries: 0',
      'concurrency: 4',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const augmentArgs = (out: string, ...more: string[]) => [
  'augment',
  '--harness',
  join(fixture, 'harness.yaml'),
  '--trajectories',
  trajectories,
  '--variants',
  '4',
  '--seed',
  '42',
  '--variant-pool',
  '8',
  '--workers',
  '1',
  '--judge',
  judgeFile,
  '--out',
  out,
  ...more,
];

const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('hsa augment --judge', () => {
  it('rejects what the judge refuses, with its reason, asking each changed text once', async () => {
    const before = server.stats.requests;
    const out = join(folder, 'whole', 'rows.jsonl');
    const run = await hsa([...augmentArgs(out), '--json']);
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    const calls = server.stats.requests - before;
    // read = written + rejected.
    expect(result.read).toBe(8);
    expect(result.rows + result.uncertified + result.judgeRefused).toBe(result.augmented * 4);
    expect(result.judgeRefused).toBeGreaterThan(0);
    expect(result.rows).toBeGreaterThan(0);
    expect(linesOf(out)).toHaveLength(result.rows);
    const refused = linesOf(join(folder, 'whole', 'rows.rejects.jsonl'))
      .map((line) => JSON.parse(line))
      .filter((reject) => reject.reason === 'judge_refused');
    expect(refused).toHaveLength(result.judgeRefused);
    for (const reject of refused) {
      expect(reject.exampleId).toMatch(/^ls-/);
      expect(reject.issues.length).toBeGreaterThan(0);
      for (const issue of reject.issues) {
        expect(issue.code).toBe('meaning_changed');
        expect(issue.path[0]).toBe('hooks');
        expect(issue.message).toMatch(/the feedback no longer names the rule that failed$/);
      }
    }
    // Each pair was asked once: the calls are the verdict lines, and fewer than the texts judged.
    const verdicts = linesOf(join(folder, 'whole', 'rows.judge.jsonl')).map((line) => JSON.parse(line));
    expect(verdicts).toHaveLength(calls);
    expect(result.judge.asked).toBe(calls);
    expect(new Set(verdicts.map((verdict) => `${verdict.base}/${verdict.variant}`)).size).toBe(calls);
    expect(result.judge.pairs).toBe(result.judge.asked + result.judge.cached);
    expect(result.judge.cached).toBeGreaterThan(0);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('resumes an interrupted run without asking again, and ends with the bytes of an uninterrupted one', async () => {
    const whole = join(folder, 'whole');
    const out = join(folder, 'resumed', 'rows.jsonl');
    const start = server.stats.requests;
    // Fail two thirds of the way: past the first rows' pairs (a row with reworded parameter descriptions
    // asks many at once), before the last.
    failFrom = start + Math.floor((linesOf(join(whole, 'rows.judge.jsonl')).length * 2) / 3);
    const broken = await hsa(augmentArgs(out));
    failFrom = undefined;
    expect(broken.status).not.toBe(0);
    expect(
      broken.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('warning:')),
    ).toHaveLength(1);
    const kept = linesOf(join(folder, 'resumed', 'rows.judge.jsonl')).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(linesOf(join(whole, 'rows.judge.jsonl')).length);

    const before = server.stats.requests;
    const resumed = await hsa([...augmentArgs(out), '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    // Only the pairs the first try did not keep are asked.
    expect(server.stats.requests - before).toBe(linesOf(join(whole, 'rows.judge.jsonl')).length - kept);
    for (const name of ['rows.jsonl', 'rows.rejects.jsonl', 'rows.judge.jsonl', 'rows.variants.jsonl'])
      expect(readFileSync(join(folder, 'resumed', name), 'utf8'), name).toBe(
        readFileSync(join(whole, name), 'utf8'),
      );
  });

  it('refuses a bad configuration with its file, line and path, exit 2', async () => {
    const bad = join(folder, 'bad-judge.yaml');
    writeFileSync(bad, ['endpoint:', `  baseURL: ${server.url}`, 'concurrency: 0', ''].join('\n'));
    const run = await hsa(
      augmentArgs(join(folder, 'bad', 'rows.jsonl')).map((arg) => (arg === judgeFile ? bad : arg)),
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(
      new RegExp(
        `^hsa: judge configuration: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+ \\$\\.endpoint\\.model: .+ \\(and 1 more\\)$`,
      ),
    );
  });

  it('refuses an API key variable that is not set, exit 2', async () => {
    const keyed = join(folder, 'keyed-judge.yaml');
    writeFileSync(
      keyed,
      [
        'endpoint:',
        `  baseURL: ${server.url}`,
        '  model: m',
        '  apiKeyEnv: HSA_TEST_UNSET_JUDGE_KEY',
        '',
      ].join('\n'),
    );
    const run = await hsa(
      augmentArgs(join(folder, 'keyed', 'rows.jsonl')).map((arg) => (arg === judgeFile ? keyed : arg)),
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      'hsa: judge configuration: endpoint.apiKeyEnv names HSA_TEST_UNSET_JUDGE_KEY, which is not set',
    );
  });
});
