// A pipeline's `judge.meaning`: a meaning judge on a loopback endpoint is asked about the texts each variant
// changed before its teacher runs; a unit it refuses is a `judge_refused` reject with the judge's reasons,
// and each changed text is asked once in the run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { hsa } from '../support/run-hsa.js';

const fixture = new URL('../../fixtures/livestream/', import.meta.url).pathname;
let folder: string;
let server: FakeOpenAIServer;
const asked = new Set<string>();

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-pipeline-meaning-'));
  server = await startFakeOpenAIServer({
    respond: (request) => {
      const question = String(request.messages.at(-1)?.content ?? '');
      asked.add(question);
      const refuse = question.startsWith('Part: hook ');
      return {
        content: JSON.stringify({ same: !refuse, reason: refuse ? 'asks for another fix' : 'same rules' }),
      };
    },
  });
  const trajectories = join(folder, 'trajectories.jsonl');
  writeFileSync(
    trajectories,
    `${readFileSync(join(fixture, 'trajectories.jsonl'), 'utf8').split('\n').slice(0, 8).join('\n')}\n`,
  );
  writeFileSync(
    join(folder, 'pipeline.yaml'),
    [
      `harness: ${join(fixture, 'harness.yaml')}`,
      `inputs: { trajectories: ${trajectories} }`,
      'augment: { policy: hat, variants: 2, pool: 8 }',
      'judge:',
      '  meaning:',
      `    endpoint: { baseURL: "${server.url}", model: judge-model, maxRetries: 0 }`,
      '    concurrency: 4',
      'exports: [trl]',
      `out: ${join(folder, 'out')}`,
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('pipeline judge.meaning', () => {
  it('refuses units whose changed texts the judge refuses, asking each text once', async () => {
    const run = await hsa(['pipeline', 'run', join(folder, 'pipeline.yaml')]);
    expect(run.status, run.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(folder, 'out', 'manifest.json'), 'utf8'));
    const rejects = readFileSync(join(folder, 'out', 'rejects.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const refused = rejects.filter((reject) => reject.reason === 'judge_refused');
    expect(refused.length).toBeGreaterThan(0);
    expect(manifest.counts.byReason.judge_refused).toBe(refused.length);
    expect(manifest.counts.examples + manifest.counts.rejected).toBe(manifest.counts.units);
    for (const reject of refused) {
      expect(reject.stage).toBe('judge');
      for (const detail of reject.details)
        expect(detail).toMatch(
          /^\$\.hooks\.items\[\d+\]\.onFail\.\w+: .*asks for another fix \[meaning_changed\]$/,
        );
    }
    // One request per distinct question.
    expect(server.stats.requests).toBe(asked.size);
  });
});
