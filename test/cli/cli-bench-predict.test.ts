// `hsa bench predict` against an OpenAI-compatible server on 127.0.0.1: the server answers each row with
// what the row expects (found by the row's system prompt), after a 500 the client retries; the predictions
// then score 100% on tool and skill selection with `hsa bench score`.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { generateBench } from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import type { BenchRow } from '../../src/bench/schema.js';
import { expectationsAsPredictions } from '../../src/bench/score.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { hsaCli, projectRoot, runCli } from '../support/run-cli.js';

function runCliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [hsaCli(), ...args], {
      cwd: projectRoot,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('hsa bench predict', () => {
  it('answers rows through an endpoint; the predictions score with hsa bench score', async () => {
    const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
    const items = [];
    for await (const record of readBenchItems(join(projectRoot, 'fixtures/livestream/bench/items.jsonl'))) {
      items.push(record);
      if (items.length === 4) break;
    }
    const rows: BenchRow[] = [];
    const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
    for await (const row of generateBench(harness, items, { plan, variants: 2, seed: 'predict-test' }))
      rows.push(row);
    const expected = new Map(
      expectationsAsPredictions(rows).map((prediction, index) => [
        (rows[index] as BenchRow).input.messages[0]?.content as string,
        prediction.output,
      ]),
    );
    const server = await startFakeOpenAIServer({
      respond: (request) => {
        const messages = request.messages as Array<{ role: string; content?: string | null }>;
        const output = expected.get(messages[0]?.content as string);
        if (!output) throw new Error('unknown row');
        const given = messages.filter((message) => message.role === 'assistant').length;
        // All the expected calls in one message, then the reply.
        if (given === 0) {
          const calls = output.flatMap((message) =>
            message.role === 'assistant' && message.tool_calls ? message.tool_calls : [],
          );
          if (calls.length > 0)
            return {
              content: null,
              tool_calls: calls.map((call) => ({
                id: call.id,
                name: call.function.name,
                arguments: call.function.arguments,
              })),
            };
        }
        const reply = output.at(-1);
        return { content: reply && reply.role === 'assistant' ? reply.content : 'Done.' };
      },
      faults: (index) => (index === 1 ? { status: 500 } : 'ok'),
    });
    const dir = await mkdtemp(join(tmpdir(), 'hsa-predict-'));
    try {
      const bench = join(dir, 'rows.jsonl');
      await writeFile(bench, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      const predictions = join(dir, 'predictions.jsonl');
      const run = await runCliAsync([
        'bench',
        'predict',
        '--bench',
        bench,
        '--endpoint',
        server.url,
        '--model',
        'scripted',
        '--concurrency',
        '3',
        '--out',
        predictions,
      ]);
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.status).toBe(0);
      const lines = (await readFile(predictions, 'utf8')).trim().split('\n');
      expect(lines.map((line) => JSON.parse(line).id)).toEqual(rows.map((row) => row.id));
      const scoresFile = join(dir, 'scores.json');
      const score = runCli([
        'bench',
        'score',
        '--bench',
        bench,
        '--predictions',
        predictions,
        '--out',
        scoresFile,
      ]);
      expect(score.status).toBe(0);
      const scores = JSON.parse(await readFile(scoresFile, 'utf8'));
      expect(scores.overall.criteria.toolSelection.variants.mean).toBe(1);
      expect(scores.overall.criteria.skillSelection.original.mean).toBe(1);
      expect(scores.overall.criteria.overall.variants.mean).toBe(1);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a missing endpoint with a usage error', () => {
    const run = runCli(['bench', 'predict', '--bench', 'x.jsonl', '--model', 'm', '--out', 'p.jsonl']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--endpoint/);
  });
});
