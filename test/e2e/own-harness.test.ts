// docs/own-harness.md, end to end: every command of the page runs as written, in a fresh folder holding the
// material it names (the public telecom tools and skills, the example prompt, hooks, logs and pipeline config,
// and node_modules for the MCP memory server it starts over stdio), and says what the page says: a harness
// built from five sources and updated, every log line accounted for, a replay scoring 1, certified rows,
// SFT exports and RL rows, a scored bench, exports that pass `hsa check-exports`, and an environment that
// serves the RL rows.
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { splitWords } from '../../src/cli/command-words.js';
import { hsaArgv, projectRoot, runCli } from '../support/run-cli.js';

const page = await readFile(join(projectRoot, 'docs/own-harness.md'), 'utf8');
const dir = await mkdtemp(join(tmpdir(), 'hsa-own-harness-'));
let server: ChildProcess | undefined;
afterAll(async () => {
  server?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});
for (const path of [
  'examples/own-harness',
  'test/augment/fixtures/public/telecom/tools.json',
  'test/augment/fixtures/public/telecom/skills',
  'fixtures/templates',
  'fixtures/importers/rules-public',
  'fixtures/importers/openai-tools.json',
  'fixtures/importers/bfcl-travel-booking.json',
])
  await cp(join(projectRoot, path), join(dir, path), { recursive: true });
await symlink(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));

/** The page's commands: every line of its `sh` blocks, continuation lines joined, split as a shell does. */
const commands = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
  block[1]!
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => splitWords(line)),
);
const ran = new Set<number>();

/** What the environment answers to /reset and /step (docs/env-server.md). */
interface EnvAnswer {
  episode_id: string;
  observation: { messages: unknown[] };
  done: boolean;
  reward: number;
}

/** The `n`-th command of the page whose words start with `hsa <words>`, marked as run. */
function pageCommand(words: string, n = 0): string[] {
  const prefix = words.split(' ');
  const found = commands
    .map((command, index) => ({ command, index }))
    .filter(({ command }) => prefix.every((word, at) => command[at + 2] === word));
  const entry = found[n];
  if (!entry) throw new Error(`docs/own-harness.md has no command "npx hsa ${words}" #${n + 1}`);
  ran.add(entry.index);
  return entry.command.slice(2);
}

const run = (args: string[]) => runCli(args, { cwd: dir, timeout: 120_000 });
const at = (path: string) => join(dir, path);
const jsonLines = async (path: string) =>
  (await readFile(at(path), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
/** Reads `name: N` counts off a summary line with the regex given. */
const numbers = (text: string, pattern: RegExp) => {
  const match = pattern.exec(text);
  if (!match) throw new Error(`no ${pattern} in:\n${text}`);
  return match.slice(1).map(Number);
};

describe('docs/own-harness.md', () => {
  it('shows only hsa commands', () => {
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) expect(command.slice(0, 2)).toEqual(['npx', 'hsa']);
  });

  it('1. builds the harness from a live MCP server, an OpenAI tool list, skills and a prompt', async () => {
    const result = run(pageCommand('harness build', 0));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^created out\/own\/harness\.yaml: harness "telecom-support" from 4 sources: 22 tools, 5 skills, 5 prompt sections, 0 hooks$/m,
    );
    const record = JSON.parse(await readFile(at('out/own/harness.build.json'), 'utf8'));
    expect(Object.keys(record.items.tools)).toHaveLength(22);
    expect(record.items.tools.read_graph.source).toMatch(/^--mcp-command node /);
  }, 60_000);

  it('2. building again with the hooks adds them and nothing else', async () => {
    const before = await readFile(at('out/own/harness.yaml'), 'utf8');
    const result = run(pageCommand('harness build', 1));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'updated out/own/harness.yaml: harness "telecom-support" from 5 sources: 22 tools, 5 skills, 5 prompt sections, 5 hooks\n  hooks: added tool_arguments_valid, reply_skill_loaded, roaming_skill_before_enable, refuel_skill_before_refuel, tool_call_budget\n',
    );
    const after = await readFile(at('out/own/harness.yaml'), 'utf8');
    // Only the hooks' list changed: the text before and after it is the same.
    const hooksAt = before.indexOf('\nhooks:\n');
    const promptAt = before.indexOf('\nprompt:\n');
    expect(after.slice(0, hooksAt)).toBe(before.slice(0, hooksAt));
    expect(after.slice(after.indexOf('\nprompt:\n'))).toBe(before.slice(promptAt));
  }, 60_000);

  it('3. imports the logs: every line written or rejected with its reason', async () => {
    const result = run(pageCommand('import trajectories'));
    expect(result.status).toBe(1);
    const [read, written, rejected] = numbers(
      result.stdout,
      /read (\d+) log lines: (\d+) written \+ (\d+) rejected/,
    );
    expect([read, written, rejected]).toEqual([9, 8, 1]);
    const logLines = (await readFile(at('examples/own-harness/logs.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean);
    expect(read).toBe(logLines.length);
    expect(await jsonLines('out/own/gold.jsonl')).toHaveLength(written!);
    const rejects = await jsonLines('out/own/gold.rejects.jsonl');
    expect(rejects).toEqual([expect.objectContaining({ line: 9, reason: 'invalid_json' })]);
    expect(result.stdout).toContain('2 hook decisions marked');

    const validate = run(pageCommand('validate'));
    expect(validate.status).toBe(0);
    expect(validate.stdout).toContain('out/own/gold.jsonl: 8 read, 8 valid, 0 invalid');
  }, 60_000);

  it('4. replays the logs through the runtime: every reward is 1', () => {
    const result = run(pageCommand('sim run'));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('valid under their harness: 8 / 8');
    expect(result.stdout).toContain(
      'mean rewards: toolCallMatch 1.0000, skillSelection 1.0000, hookCompliance 1.0000, grounding 1.0000, total 1.0000',
    );
  }, 60_000);

  it('5. writes certified rows, every trajectory accounted for', async () => {
    const result = run(pageCommand('augment'));
    expect(result.status).toBe(0);
    const [read, augmented, rejected] = numbers(
      result.stdout,
      /read (\d+) trajectories: (\d+) augmented \+ (\d+) rejected/,
    );
    expect(read).toBe(augmented! + rejected!);
    const [written, uncertified, examples, variants] = numbers(
      result.stdout,
      /rows: (\d+) written \+ (\d+) uncertified = (\d+) × (\d+) variants/,
    );
    expect([written! + uncertified!, uncertified]).toEqual([examples! * variants!, 0]);
    const rows = await jsonLines('out/own/rows.jsonl');
    expect(rows).toHaveLength(written!);
    for (const row of rows) expect(row.certificate.certified).toBe(true);
    expect(new Set(rows.map((row) => row.exampleId)).size).toBe(8);
  }, 120_000);

  it('6. runs the pipeline config the page shows: SFT exports, a bench and RL rows', async () => {
    const items = run(pageCommand('bench items'));
    expect(items.status).toBe(0);
    const [turns, itemCount, skipped] = numbers(
      items.stdout,
      /turns: (\d+) = (\d+) items written \+ (\d+) skipped/,
    );
    expect(turns).toBe(itemCount! + skipped!);

    // The config on the page is the config that runs.
    const shown = /```yaml\n# examples\/own-harness\/pipeline\.yaml[^\n]*\n([\s\S]*?)```/.exec(page)?.[1];
    const file = await readFile(at('examples/own-harness/pipeline.yaml'), 'utf8');
    expect(YAML.parse(shown ?? '')).toEqual(YAML.parse(file));

    const result = run(pageCommand('pipeline run'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const manifest = JSON.parse(await readFile(at('out/own/pipeline/manifest.json'), 'utf8'));
    const { counts } = manifest;
    expect(counts.read).toBe(8);
    expect(counts.units).toBe(counts.examples + counts.rejected);
    expect(counts.units).toBe(8 * 3);
    expect(await jsonLines('out/own/pipeline/examples.jsonl')).toHaveLength(counts.examples);
    for (const format of ['trl', 'openai'])
      expect(await jsonLines(`out/own/pipeline/exports/${format}/train.jsonl`)).toHaveLength(counts.examples);
    expect(await jsonLines('out/own/pipeline/bench/rows.jsonl')).toHaveLength(itemCount! * 3);
    const rl = await jsonLines('out/own/pipeline/rl/rows.jsonl');
    expect(rl).toHaveLength(8);
    expect(manifest.rl.counts).toMatchObject({ groups: 8, rows: 8 });
    expect(manifest.rl.counts.augmented + manifest.rl.counts.original).toBe(8);
    expect(await jsonLines('out/own/pipeline/rl/trl/grpo.jsonl')).toHaveLength(8);
  }, 180_000);

  it('7. scores the bench', async () => {
    const predict = run(pageCommand('bench predict'));
    expect(predict.status).toBe(0);
    const rows = await jsonLines('out/own/pipeline/bench/rows.jsonl');
    expect(await jsonLines('out/own/predictions.jsonl')).toHaveLength(rows.length);
    const score = run(pageCommand('bench score'));
    expect(score.status).toBe(0);
    const scores = JSON.parse(await readFile(at('out/own/scores.json'), 'utf8'));
    expect(scores.counts).toMatchObject({ rows: rows.length, predictions: rows.length, missing: 0 });
    // The memorising player passes every original row and loses on the variants.
    expect(scores.overall.criteria.overall.original.mean).toBe(1);
    expect(scores.overall.criteria.overall.gap.mean).toBeGreaterThan(0.5);
  }, 60_000);

  it('8. the exports pass hsa check-exports', () => {
    const result = run(pageCommand('check-exports'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "out/own/pipeline/exports/trl (trl): 24 rows, 24 pass the trainer's rules",
    );
    expect(result.stdout).toContain('qwen         24/24 rows render');
    expect(result.stdout).toContain(
      "out/own/pipeline/exports/openai (openai): 24 rows, 24 pass the trainer's rules",
    );
  }, 60_000);

  it('9. the environment serves every RL row, and scores the logged play of one at 1', async () => {
    const args = pageCommand('env serve');
    const child = spawn(process.execPath, hsaArgv(args), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    server = child;
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`env serve did not start: ${output}`)), 30_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', () => reject(new Error(`env serve ended: ${output}`)));
    });
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as EnvAnswer };
    };
    const rows = await jsonLines('out/own/pipeline/rl/rows.jsonl');
    for (const row of rows) {
      const reset = await post('/reset', row.reset);
      expect(reset.status, row.id).toBe(200);
      expect(reset.body.observation.messages).toEqual(row.prompt);
    }
    // The logged conversation of an original-state row, played step by step, gets the full reward.
    const original = rows.find((row) => row.state === 'original');
    const gold = (await jsonLines('out/own/gold.jsonl')).find(
      (trajectory) => trajectory.id === original.episode.id,
    );
    const episode = await post('/reset', original.reset);
    let last = episode.body;
    for (const message of gold.messages.filter((entry: { role: string }) => entry.role === 'assistant')) {
      const { hsa: _marker, ...sent } = message;
      const step = await post('/step', { episode_id: episode.body.episode_id, message: sent });
      expect(step.status).toBe(200);
      last = step.body;
    }
    expect(last.done).toBe(true);
    expect(last.reward).toBe(1);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    server = undefined;
  }, 60_000);

  it('builds a harness from a folder of OpenHands microagents, without the tool list', async () => {
    const result = run(pageCommand('harness build', 2));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^created out\/openhands\/harness\.yaml: harness "harness" from 2 sources: 5 tools, 5 skills, 2 prompt sections, 0 hooks$/m,
    );
    // The notes the page shows, word for word.
    for (const line of result.stderr.trim().split('\n')) expect(page).toContain(line);
    expect(result.stderr.trim().split('\n')).toHaveLength(3);
    const harness = YAML.parse(await readFile(at('out/openhands/harness.yaml'), 'utf8'));
    expect(harness.prompt.sections.map((section: { id: string }) => section.id)).toEqual(['role', 'skills']);
  }, 60_000);

  it("builds a harness from BFCL's function docs: JSON Lines, no type, Python type names, response schemas", async () => {
    const result = run(pageCommand('harness build', 3));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^created out\/bfcl\/harness\.yaml: harness "travel-booking" from 1 source: 4 tools, 0 skills, 2 prompt sections, 0 hooks$/m,
    );
    // The notes the page shows, word for word.
    for (const line of result.stderr.trim().split('\n')) expect(page).toContain(line);
    expect(result.stderr.trim().split('\n')).toHaveLength(2);
    const harness = YAML.parse(await readFile(at('out/bfcl/harness.yaml'), 'utf8'));
    const exchange = harness.tools.items.find(
      (tool: { name: string }) => tool.name === 'compute_exchange_rate',
    );
    expect(exchange.parameters.properties.value.type).toBe('number');
    expect(exchange.outputSchema.type).toBe('object');
  }, 60_000);

  it('ran every command of the page', () => {
    expect([...ran].sort((a, b) => a - b)).toEqual(commands.map((_, index) => index));
  });
});
