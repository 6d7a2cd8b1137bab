// `hsa sim run --endpoint`: the agent loop against an OpenAI-compatible server on 127.0.0.1. The scripted
// server answers like the oracle (the gold assistant messages of each episode, found by its first user
// message), with a 500 and a dropped connection on the way: the CLI must retry them and reproduce the
// oracle's trajectories and rewards.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { planEpisodes } from '../../src/scenarios/livestream/plan.js';
import { runOracleEpisode } from '../../src/scenarios/livestream/run-episode.js';
import type { AssistantMessage, Message } from '../../src/trajectory/schema.js';
import { startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { projectRoot } from '../support/run-cli.js';

function runCliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...args],
      {
        cwd: projectRoot,
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const isUserMessage = (message: Message) => message.role === 'user' && !message.hsa;

describe('hsa sim run --endpoint', () => {
  it('plays the episodes through an OpenAI-compatible server, retrying its faults', async () => {
    const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
    const seed = 'endpoint';
    const episodes = 6;
    const golds = await Promise.all(
      planEpisodes({ episodes, seed, idPrefix: 'ls-' }).map((entry) =>
        runOracleEpisode({ entry, seed, base: harness }),
      ),
    );
    const byUserMessage = new Map(
      golds.map((gold) => [
        (gold.trajectory.messages.find(isUserMessage) as { content: string }).content,
        gold.trajectory.messages.filter(
          (message): message is AssistantMessage =>
            message.role === 'assistant' && (!message.hsa || message.hsa.event === 'hook_rejected'),
        ),
      ]),
    );
    const runtimeTexts = new Set(
      harness.hooks.items.flatMap((hook) =>
        hook.onFail.action === 'fallback'
          ? [hook.onFail.reply]
          : hook.onFail.action === 'block'
            ? [hook.onFail.message ?? '']
            : hook.onFail.exhausted === 'fallback'
              ? [hook.onFail.fallback ?? '']
              : [''],
      ),
    );
    const server = await startFakeOpenAIServer({
      respond: (request) => {
        const messages = request.messages as Array<{
          role: string;
          content?: string | null;
          tool_calls?: unknown[];
        }>;
        const first = messages.find((message) => message.role === 'user')!.content as string;
        const answers = byUserMessage.get(first)!;
        // Fallbacks and blocks are the runtime's turns, not the model's: they do not count as answers given.
        const given = messages.filter(
          (message) =>
            message.role === 'assistant' &&
            (message.tool_calls !== undefined || !runtimeTexts.has(message.content ?? '')),
        ).length;
        const next = answers[given];
        if (!next) throw new Error('no scripted answer');
        return {
          content: next.content,
          ...(next.tool_calls
            ? {
                tool_calls: next.tool_calls.map((call) => ({
                  id: call.id,
                  name: call.function.name,
                  arguments: call.function.arguments,
                })),
              }
            : {}),
        };
      },
      faults: (index) => (index === 1 ? { status: 500 } : index === 3 ? 'drop' : 'ok'),
    });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'hsa-endpoint-'));
      const out = join(dir, 'model.jsonl');
      const run = await runCliAsync([
        'sim',
        'run',
        '--scenario',
        'livestream',
        '--harness',
        join(projectRoot, 'fixtures/livestream/harness.yaml'),
        '--endpoint',
        server.url,
        '--model',
        'scripted',
        '--episodes',
        String(episodes),
        '--seed',
        seed,
        '--concurrency',
        '1',
        '--out',
        out,
      ]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/valid under their harness: 6 \/ 6/);
      const played = (await readFile(out, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; messages: Message[] });
      expect(played.map((trajectory) => trajectory.messages)).toEqual(
        golds.map((gold) => gold.trajectory.messages),
      );
      const faults = server.requests.filter((request) => request.fault !== 'ok');
      expect(faults.map((request) => request.fault)).toEqual(['http_500', 'drop']);
    } finally {
      await server.close();
    }
  }, 60_000);
});
