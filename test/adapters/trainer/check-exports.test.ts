// `hsa check-exports` on a small pipeline output, with the project's constraint templates
// (fixtures/templates: Qwen, Llama, DeepSeek, gpt-oss families): what passes, what fails, and why.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPipelineDependencies } from '../../../src/adapters/pipeline-dependencies.js';
import {
  alternationProblem,
  argumentsProblem,
  checkExports,
  type ExportCheckResult,
} from '../../../src/adapters/trainer/check-exports.js';
import { splitParallelCalls, type TrlRow } from '../../../src/adapters/trainer/to-trl-row.js';
import { builtinRegistry } from '../../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../../src/pipeline/config.js';
import { runPipeline } from '../../../src/pipeline/run-pipeline.js';
import { createLivestreamScenario } from '../../../src/scenarios/livestream/index.js';
import { projectRoot } from '../../support/run-cli.js';
import { hsa } from '../../support/run-hsa.js';

const registry = await builtinRegistry();
const templateNames = ['qwen', 'llama', 'deepseek', 'gpt-oss'];
const templateFiles = templateNames.map((name) => join(projectRoot, 'fixtures/templates', `${name}.jinja`));
const templates = templateNames.map((name, index) => ({
  name,
  source: readFileSync(templateFiles[index] as string, 'utf8'),
}));

async function pipelineOutput(exports: unknown[]) {
  const root = await mkdtemp(join(tmpdir(), 'hsa-check-exports-'));
  const config = parsePipelineConfig({
    harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
    inputs: { simulate: { scenario: 'livestream', episodes: 12, seed: 'check' } },
    augment: { policy: 'hat', variants: 1 },
    collapse: { keepShare: 1 },
    exports,
    out: join(root, 'out'),
  });
  await runPipeline(
    config,
    buildPipelineDependencies(config, { registry, scenario: createLivestreamScenario() }),
  );
  return config.out;
}

const find = (results: ExportCheckResult[], name: string, check: string) =>
  results.find((result) => result.export === name && result.check === check) as ExportCheckResult;

let results: ExportCheckResult[];
let out: string;

// One run writes the default exports and the two written for other families: one call per message
// (Llama 3.x, gpt-oss) and arguments as JSON text (DeepSeek-V3).
beforeAll(async () => {
  out = await pipelineOutput([
    'trl',
    'axolotl',
    'openai',
    { trl: { folder: 'trl-one-call', parallelCalls: 'split' } },
    { trl: { folder: 'trl-string-arguments', argumentsEncoding: 'string' } },
  ]);
  results = await checkExports(out, { templates });
}, 300_000);

describe('check-exports', () => {
  it('every export passes its structural rules (tools decoding, role alternation)', () => {
    for (const name of ['trl', 'axolotl', 'openai', 'trl-one-call', 'trl-string-arguments']) {
      const result = find(results, name, 'structure');
      expect(result.rows).toBeGreaterThan(0);
      expect(result.failed, JSON.stringify(result.reasons)).toBe(0);
    }
  });

  it('arguments as mappings render through the Qwen template; DeepSeek needs strings, and says so', () => {
    for (const name of ['trl', 'axolotl', 'trl-one-call']) {
      expect(find(results, name, 'qwen').failed).toBe(0);
      const deepseek = find(results, name, 'deepseek');
      expect(deepseek.failed).toBe(deepseek.rows);
      expect(deepseek.reasons[0]?.reason).toMatch(/arguments must be JSON text \(a string\)/);
    }
    expect(find(results, 'trl-string-arguments', 'deepseek').failed).toBe(0);
    expect(find(results, 'trl-string-arguments', 'qwen').reasons[0]?.reason).toMatch(
      /must be a mapping, not a string/,
    );
  });

  it('parallel calls are what Llama and gpt-oss refuse; split into one call per message, every row renders', () => {
    for (const name of ['trl', 'axolotl']) {
      for (const template of ['gpt-oss', 'llama']) {
        const result = find(results, name, template);
        expect(result.failed).toBeGreaterThan(0);
        expect(result.reasons.map((reason) => reason.reason)).toEqual([
          expect.stringMatching(/one tool call per assistant message|single tool-calls at once/),
        ]);
      }
    }
    for (const template of ['gpt-oss', 'llama']) {
      const result = find(results, 'trl-one-call', template);
      expect(result.rows).toBe(find(results, 'trl', template).rows);
      expect(result.failed, JSON.stringify(result.reasons)).toBe(0);
    }
  });

  it('splitting keeps every call, in order, each followed by its own result', async () => {
    const read = async (folder: string) =>
      (await readFile(join(out, 'exports', folder, 'train.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as TrlRow);
    const [whole, split] = await Promise.all([read('trl'), read('trl-one-call')]);
    expect(split).toHaveLength(whole.length);
    const calls = (row: TrlRow) =>
      row.messages.flatMap((message) => ('tool_calls' in message ? (message.tool_calls ?? []) : []));
    for (const [index, row] of split.entries()) {
      expect(calls(row)).toEqual(calls(whole[index] as TrlRow));
      for (const [position, message] of row.messages.entries()) {
        if (message.role !== 'assistant' || !message.tool_calls) continue;
        expect(message.tool_calls).toHaveLength(1);
        const next = row.messages[position + 1];
        expect(next?.role === 'tool' && next.tool_call_id).toBe(message.tool_calls[0]?.id);
      }
    }
    expect(
      whole.some((row) =>
        row.messages.some((message) => 'tool_calls' in message && (message.tool_calls?.length ?? 0) > 1),
      ),
    ).toBe(true);
  });

  it('splitParallelCalls keeps a message whole when its results do not all follow it', () => {
    const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'f', arguments: {} } });
    const messages = [
      { role: 'user' as const, content: 'go' },
      { role: 'assistant' as const, content: 'two calls', tool_calls: [call('a'), call('b')] },
      { role: 'tool' as const, content: 'A', tool_call_id: 'a' },
    ];
    expect(splitParallelCalls(messages)).toEqual(messages);
    const answered = [...messages, { role: 'tool' as const, content: 'B', tool_call_id: 'b' }];
    expect(splitParallelCalls(answered)).toEqual([
      messages[0],
      { role: 'assistant', content: 'two calls', tool_calls: [call('a')] },
      answered[2],
      { role: 'assistant', tool_calls: [call('b')] },
      answered[3],
    ]);
  });

  it('a template that quotes JSON text again, or drops a parallel call, fails the rows it mangles', async () => {
    // Written here to exercise the check, not as any family's template: arguments through `tojson` (as
    // Qwen2.5's does), and a template that renders only the first call of a message.
    const quoting = {
      name: 'tojson-arguments',
      source:
        '{% for m in messages %}{{ m.content or "" }}{% for c in m.tool_calls or [] %}{{ c.function.name }}({{ c.function.arguments | tojson }}){% endfor %}{% endfor %}',
    };
    const firstCallOnly = {
      name: 'first-call-only',
      source:
        '{% for m in messages %}{{ m.content or "" }}{% if m.tool_calls %}{{ m.tool_calls[0].function.name }}({{ m.tool_calls[0].function.arguments | tojson }}){% endif %}{% endfor %}',
    };
    const checked = await checkExports(out, { templates: [quoting, firstCallOnly] });
    const rows = find(checked, 'trl-string-arguments', 'tojson-arguments');
    expect(rows.failed).toBeGreaterThan(0);
    expect(rows.reasons.map((reason) => reason.reason)).toEqual([expect.stringMatching(/encoded twice/)]);
    expect(find(checked, 'trl', 'tojson-arguments').failed).toBe(0);
    const dropped = find(checked, 'trl', 'first-call-only');
    expect(dropped.failed).toBeGreaterThan(0);
    // The call's name may show up elsewhere (the system prompt names the tools): then its arguments are missing.
    expect(dropped.reasons[0]?.reason).toMatch(/missing from the rendered text|not the row's arguments/);
    expect(dropped.reasons[0]?.at).toMatch(/^line \d+, messages\[\d+\]\.tool_calls\[1\]/);
    expect(find(checked, 'trl-one-call', 'first-call-only').failed).toBe(0);
  });

  it('a template that cannot carry tool calls at all is refused (a usage error, exit 2), named', async () => {
    // Renders neither calls nor content of call messages: no export can carry a call through it.
    const textOnly = {
      name: 'text-only',
      source: '{% for m in messages %}{% if not m.tool_calls %}{{ m.content or "" }}{% endif %}{% endfor %}',
    };
    await expect(checkExports(out, { templates: [textOnly] })).rejects.toThrow(
      /text-only cannot carry tool calls: it renders a conversation with a tool call without the call/,
    );
    // Renders content and never reads tool_calls (as LFM2 v1's does): the calls written as text pass the
    // probe, so it is checked row by row, where rows without the text fail with every call missing.
    const contentOnly = {
      name: 'content-only',
      source: '{% for m in messages %}{{ m.content or "" }}{% endfor %}',
    };
    const rowByRow = await checkExports(join(out, 'exports', 'trl'), { templates: [contentOnly] });
    expect(find(rowByRow, 'trl', 'content-only').reasons[0]?.reason).toMatch(
      /missing from the rendered text|not the row's arguments/,
    );
    const raising = {
      name: 'alternating',
      source:
        "{% for m in messages %}{% if m.role == 'tool' %}{{ raise_exception('Conversation roles must alternate') }}{% endif %}{{ m.content }}{% endfor %}",
    };
    await expect(checkExports(out, { templates: [raising] })).rejects.toThrow(
      /alternating cannot carry tool calls: it raises on a conversation with a tool call \(Conversation roles must alternate/,
    );
    // A template the table knows by name is judged by the table: TRL's llama3 drops calls, phi3 too.
    const llama3 = join(await mkdtemp(join(tmpdir(), 'hsa-templates-')), 'llama3.jinja');
    await writeFile(llama3, readFileSync(templateFiles[1] as string, 'utf8'));
    const refused = await hsa(['check-exports', join(out, 'exports', 'trl'), '--template', llama3]);
    expect(refused.status, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(
      /llama3 \(Llama 3\) cannot carry tool calls: its template renders an assistant message that calls tools as an empty turn/,
    );
  });

  it("every call must render with the row's arguments verbatim: a wrong pairing fails, located; the right one passes", async () => {
    // TRL's DeepSeek-V3 training template (what assistant_only_loss=True renders with) `tojson`s the
    // arguments: over the string-arguments export every call comes out encoded twice, with no error.
    const training = join(projectRoot, 'fixtures/templates/deepseek-training.jinja');
    const wrong = await hsa([
      'check-exports',
      join(out, 'exports', 'trl-string-arguments'),
      '--template',
      training,
    ]);
    expect(wrong.status, wrong.stdout + wrong.stderr).toBe(1);
    expect(wrong.stdout).toMatch(
      /× rendered arguments are not the row's arguments, verbatim \(encoded twice.*\(first at line \d+, messages\[\d+\]\.tool_calls\[0\] \(\w+ \{/,
    );
    const right = await hsa(['check-exports', join(out, 'exports', 'trl'), '--template', training]);
    expect(right.status, right.stdout + right.stderr).toBe(0);
    expect(right.stdout).toMatch(/^ +deepseek-training +(\d+)\/\1 rows render/m);
    // And directly: arguments written in another form than the row's fail, each located.
    const row = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'get_price', arguments: '{"link_id":3}' } }],
      },
    ];
    expect(argumentsProblem('get_price\n{"link_id":3}', row)).toBeUndefined();
    expect(argumentsProblem('get_price\n"{\\"link_id\\":3}"', row)).toEqual({
      at: 'messages[1].tool_calls[0] (get_price {"link_id":3})',
      reason: expect.stringMatching(/not the row's arguments, verbatim \(encoded twice/),
    });
    expect(argumentsProblem('get_price\n{"link_id": 4}', row)?.at).toMatch(
      /^messages\[1\]\.tool_calls\[0\] /,
    );
    const mapping = [
      row[0],
      { ...row[1], tool_calls: [{ function: { name: 'get_price', arguments: { link_id: 3, size: 'M' } } }] },
    ];
    expect(argumentsProblem('get_price {"size": "M", "link_id": 3}', mapping as never)).toBeUndefined();
    expect(argumentsProblem('call:get_price{link_id:3,size:<|"|>M<|"|>}', mapping as never)).toBeUndefined();
    expect(argumentsProblem('get_price {"link_id": 3}', mapping as never)?.reason).toMatch(
      /not the row's arguments/,
    );
  });

  it('a template that would exhaust the process is refused with the limit, before any row', async () => {
    const hostile = [{ name: 'range-bomb', source: '{% for i in range(1000000000) %}x{% endfor %}' }];
    await expect(
      checkExports(join(out, 'exports', 'trl'), { templates: hostile, format: 'trl' }),
    ).rejects.toThrow(/range-bomb cannot carry tool calls: it raises .*range\(\) of more than 100000 items/);
  });

  it("every kind of folder is read by its trainer's rules, and rendered through the templates it names", async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-check-kinds-'));
    const config = parsePipelineConfig({
      harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
      inputs: { simulate: { scenario: 'livestream', episodes: 6, seed: 'kinds' } },
      augment: { policy: 'hat', variants: 1 },
      collapse: { keepShare: 1 },
      exports: ['llama-factory', 'verl', { axolotl: { folder: 'axolotl-one-call', parallelCalls: 'split' } }],
      rl: { episodes: 2, groupSize: 2, formats: ['openrlhf'] },
      out: join(root, 'out'),
    });
    await runPipeline(
      config,
      buildPipelineDependencies(config, { registry, scenario: createLivestreamScenario() }),
    );
    // A template folder as TRL ships one: two of the names the folders list.
    const templateDir = join(root, 'chat_templates');
    await mkdir(templateDir);
    await writeFile(join(templateDir, 'qwen2_5.jinja'), readFileSync(templateFiles[0] as string, 'utf8'));
    await writeFile(join(templateDir, 'llama3_1.jinja'), readFileSync(templateFiles[1] as string, 'utf8'));

    const unrendered = await checkExports(config.out);
    expect(
      unrendered.filter((result) => result.check === 'structure').map((result) => result.export),
    ).toEqual(['llama-factory', 'verl', 'axolotl-one-call', 'openrlhf']);
    for (const result of unrendered.filter((entry) => entry.check === 'structure')) {
      expect(result.rows, result.export).toBeGreaterThan(0);
      expect(result.failed, JSON.stringify(result.reasons)).toBe(0);
      expect(result.rules?.length).toBeGreaterThan(1);
    }
    expect(find(unrendered, 'llama-factory', 'templates').note).toMatch(
      /^not rendered: the rows are rendered by LLaMA-Factory's own `template:`/,
    );
    expect(find(unrendered, 'verl', 'templates').note).toMatch(
      /^not rendered: no --template or --template-dir given; the folder is for .*llama3_1.*qwen2_5/,
    );
    expect(find(unrendered, 'openrlhf', 'templates').note).toMatch(
      /^not rendered: no --template given, and the folder names no chat template/,
    );

    const rendered = await checkExports(config.out, { templateDir });
    for (const name of ['verl', 'axolotl-one-call']) {
      expect(find(rendered, name, 'templates').note).toMatch(
        /^rendered through the 2 of the folder's templates found in .*; not rendered: .*qwen3/,
      );
      for (const template of ['qwen2_5', 'llama3_1']) {
        const result = find(rendered, name, template);
        expect(result.rows, `${name}/${template}`).toBeGreaterThan(0);
        expect(result.failed, JSON.stringify(result.reasons)).toBe(0);
      }
    }
    const prompts = await checkExports(join(config.out, 'rl', 'openrlhf'), {
      templates: [templates[0] as never],
    });
    expect(find(prompts, 'openrlhf', 'qwen').failed).toBe(0);
    expect(find(prompts, 'openrlhf', 'qwen').rows).toBe(2);

    // A row that breaks LLaMA-Factory's alternation rule fails with it, located.
    const broken = join(root, 'broken', 'llama-factory');
    await mkdir(broken, { recursive: true });
    await writeFile(
      join(broken, 'dataset_info.json'),
      await readFile(join(config.out, 'exports/llama-factory/dataset_info.json')),
    );
    const [first, ...rest] = (
      await readFile(join(config.out, 'exports/llama-factory/hsa_train.jsonl'), 'utf8')
    ).split('\n');
    const row = JSON.parse(first as string) as { conversations: unknown[] };
    row.conversations = [...row.conversations, { from: 'human', value: 'and?' }];
    await writeFile(join(broken, 'hsa_train.jsonl'), [JSON.stringify(row), ...rest].join('\n'));
    const checked = await hsa(['check-exports', broken]);
    expect(checked.status, checked.stdout + checked.stderr).toBe(1);
    expect(checked.stdout).toMatch(/llama-factory \(llama-factory\): \d+ rows, \d+ pass the trainer's rules/);
    expect(checked.stdout).toMatch(
      /1 × the conversation does not end on the model \(gpt or function_call\) {2}\(first at line 1\)/,
    );
  }, 300_000);

  it('role alternation: the rules it knows', () => {
    expect(alternationProblem([{ role: 'user' }, { role: 'user' }, { role: 'assistant' }])).toMatch(
      /two user messages/,
    );
    expect(alternationProblem([{ role: 'user' }, { role: 'tool' }, { role: 'assistant' }])).toMatch(
      /answers no call/,
    );
    expect(alternationProblem([{ role: 'user' }, { role: 'assistant', tool_calls: [{}] }])).toBeUndefined();
    expect(
      alternationProblem([{ role: 'user' }, { role: 'assistant', tool_calls: [{}] }, { role: 'user' }]),
    ).toMatch(/unanswered/);
  });

  it('hsa check-exports prints a report per export and template, as JSON too, and exits 1 when a row fails', async () => {
    const run = await hsa(['check-exports', out, '--template', ...templateFiles, '--json']);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { results: ExportCheckResult[] };
    expect(report.results.map((result) => `${result.export}/${result.check}`)).toEqual([
      ...['trl', 'axolotl'].flatMap((name) => [
        `${name}/structure`,
        ...templateNames.map((t) => `${name}/${t}`),
      ]),
      'openai/structure',
      'openai/templates',
      ...['trl-one-call', 'trl-string-arguments'].flatMap((name) => [
        `${name}/structure`,
        ...templateNames.map((t) => `${name}/${t}`),
      ]),
    ]);
    // Each family's template over the exports written for it: every row passes.
    const pairs: Array<[string[], string[]]> = [
      [['trl', 'axolotl'], ['qwen']],
      [['trl-one-call'], ['llama', 'gpt-oss', 'qwen']],
      [['trl-string-arguments'], ['deepseek']],
    ];
    for (const [folders, names] of pairs) {
      const checked = await hsa([
        'check-exports',
        ...folders.map((folder) => join(out, 'exports', folder)),
        '--template',
        ...names.map((name) => join(projectRoot, 'fixtures/templates', `${name}.jinja`)),
      ]);
      expect(checked.status, checked.stdout + checked.stderr).toBe(0);
      for (const name of names)
        expect(checked.stdout).toMatch(new RegExp(`^ +${name} +(\\d+)/\\1 rows render`, 'm'));
    }
    const unnamed = await hsa(['check-exports', join(out, 'exports', 'trl-one-call'), '--format', 'bogus']);
    expect(unnamed.status).toBe(2);
    expect(unnamed.stderr).toMatch(/--format bogus: not a format the check reads/);
    const wrong = await hsa(['check-exports', join(out, 'exports', 'trl-one-call'), '--format', 'verl']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/no export to check/);
  });
});
