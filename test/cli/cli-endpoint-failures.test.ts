// An endpoint that answers some requests and, for others, hangs or answers 500 every time: `sim run
// --endpoint` and `bench predict` keep every finished unit, record each failed one as a reject with its
// reason, go on, and exit 1; read = written + rejected.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { generateBench } from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import type { BenchRow } from '../../src/bench/schema.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

type Fate = 'answer' | 'hang' | 'fail';

/** What the server does with a conversation, from its first user message: the same on every try. */
function fateOf(text: string): Fate {
  const byte = createHash('sha256').update(text).digest()[0] as number;
  return (['answer', 'hang', 'fail'] as const)[byte % 3] as Fate;
}

const firstUser = (messages: Array<{ role: string; content?: unknown }>) =>
  String(messages.find((message) => message.role === 'user')?.content ?? '');

let server: FakeOpenAIServer;

beforeAll(async () => {
  server = await startFakeOpenAIServer({
    respond: () => ({ content: 'Done.' }),
    faults: (_index, body) => {
      const fate = fateOf(firstUser((body as { messages: Array<{ role: string }> }).messages));
      return fate === 'hang' ? { delayMs: 600_000 } : fate === 'fail' ? { status: 500 } : 'ok';
    },
  });
});

afterAll(async () => {
  await server.close();
});

const lines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('a unit whose endpoint fails for good is a reject; the run keeps the others', () => {
  it('sim run --endpoint: written + rejected = episodes, each reject with its reason, exit 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsa-endpoint-failures-'));
    const common = [
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      'fixtures/livestream/harness.yaml',
    ];
    const plan = ['--episodes', '9', '--seed', 'fates'];
    // The oracle plays the same plan: every episode's id and first user message.
    const oracle = await hsa([...common, ...plan, '--out', join(dir, 'oracle.jsonl')]);
    expect(oracle.status, oracle.stderr).toBe(0);
    const episodes = (await lines(join(dir, 'oracle.jsonl'))) as Array<{ id: string; messages: [] }>;
    const fates = new Map(episodes.map((episode) => [episode.id, fateOf(firstUser(episode.messages))]));
    expect(new Set(fates.values()), 'the plan has every fate').toEqual(new Set(['answer', 'hang', 'fail']));

    const out = join(dir, 'model.jsonl');
    const run = await hsa([
      ...common,
      ...plan,
      '--endpoint',
      server.url,
      '--model',
      'm',
      '--timeout',
      '2',
      '--concurrency',
      '3',
      '--out',
      out,
    ]);
    expect(run.status, run.stderr).toBe(1);
    const written = (await lines(out)).map((trajectory: { id: string }) => trajectory.id);
    const rejects = await lines(join(dir, 'model.rejects.jsonl'));
    expect(written).toEqual(episodes.map((episode) => episode.id).filter((id) => fates.get(id) === 'answer'));
    expect(rejects.map((reject: { id: string }) => reject.id)).toEqual(
      episodes.map((episode) => episode.id).filter((id) => fates.get(id) !== 'answer'),
    );
    expect(written.length + rejects.length).toBe(episodes.length);
    for (const reject of rejects) {
      expect(reject.reason).toBe('endpoint_failed');
      if (fates.get(reject.id) === 'hang') expect(reject.code).toBe('timeout');
      else expect(reject).toMatchObject({ code: 'http_error', statusCode: 500 });
      expect(reject.message).toMatch(/deadline of 2000 ms|500/);
    }
    expect((await lines(join(dir, 'model.rewards.jsonl'))).length).toBe(written.length);
    expect(run.stdout).toMatch(new RegExp(`episodes: ${written.length} played \\+ ${rejects.length} failed`));
    expect(run.stderr).toMatch(/^hsa: episode \S+ failed: /m);
  }, 240_000);

  it('bench predict: written + rejected = rows, each reject with its reason, exit 1', async () => {
    const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
    const items = [];
    for await (const record of readBenchItems(join(projectRoot, 'fixtures/livestream/bench/items.jsonl'))) {
      items.push(record);
      if (items.length === 12) break;
    }
    const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
    const rows: BenchRow[] = [];
    for await (const row of generateBench(harness, items, { plan, variants: 1, seed: 'fates' }))
      rows.push(row);
    const fates = new Map(rows.map((row) => [row.id, fateOf(firstUser(row.input.messages))]));
    expect(new Set(fates.values()), 'the rows have every fate').toEqual(new Set(['answer', 'hang', 'fail']));
    const dir = await mkdtemp(join(tmpdir(), 'hsa-predict-failures-'));
    const bench = join(dir, 'rows.jsonl');
    await writeFile(bench, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    const out = join(dir, 'predictions.jsonl');
    const run = await hsa([
      'bench',
      'predict',
      '--bench',
      bench,
      '--endpoint',
      server.url,
      '--model',
      'm',
      '--timeout',
      '2',
      '--concurrency',
      '4',
      '--out',
      out,
    ]);
    expect(run.status, run.stderr).toBe(1);
    const written = (await lines(out)).map((prediction: { id: string }) => prediction.id);
    const rejects = await lines(join(dir, 'predictions.rejects.jsonl'));
    expect(written).toEqual(rows.map((row) => row.id).filter((id) => fates.get(id) === 'answer'));
    expect(rejects.map((reject: { id: string }) => reject.id)).toEqual(
      rows.map((row) => row.id).filter((id) => fates.get(id) !== 'answer'),
    );
    for (const reject of rejects)
      expect(reject.code).toBe(fates.get(reject.id) === 'hang' ? 'timeout' : 'http_error');
    expect(run.stdout).toMatch(new RegExp(`predicted ${written.length} rows .*; ${rejects.length} failed`));
  }, 240_000);
});
