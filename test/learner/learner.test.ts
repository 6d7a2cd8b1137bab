// The learner's mechanics on small TRL files written here: both routes exist (it writes a name the prompt
// does not offer; it copies an offered name it never saw), training lowers the loss, the ChatModel plays an
// episode through the runtime, and the same seed trains the same learner.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../src/augment/random.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { learnerChatModel } from '../../src/learner/learner.js';
import { words } from '../../src/learner/text-features.js';
import { trainLearner } from '../../src/learner/train-learner.js';
import { runAgent } from '../../src/runtime/agent-loop.js';
import { toolsFromFunctions } from '../../src/runtime/tool-runtime.js';

let folder: string;

const cities = ['Paris', 'Tokyo', 'Lima', 'Oslo', 'Cairo', 'Quito', 'Delhi', 'Perth'];

function tool(name: string, description: string) {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name.' } },
        required: ['city'],
      },
    },
  };
}

/** A TRL row: the user asks, the assistant calls `called`, then replies. */
function row(question: string, called: string, tools: unknown[]) {
  return {
    messages: [
      { role: 'system', content: 'You answer travel questions with the tools.' },
      { role: 'user', content: question },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: called, arguments: { city: 'x' } } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"ok":true}', name: called },
      { role: 'assistant', content: 'Here it is.' },
    ],
    tools: JSON.stringify(tools),
  };
}

const jsonl = (rows: unknown[]) => rows.map((value) => `${JSON.stringify(value)}\n`).join('');

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hsa-learner-'));
  // Generator only: nothing is offered, so only the vocabulary can explain the names.
  const unoffered = cities.flatMap((city) => [
    row(`weather in ${city} tomorrow?`, 'get_weather', []),
    row(`what time is it in ${city}?`, 'get_time', []),
  ]);
  await writeFile(join(folder, 'unoffered.jsonl'), jsonl(unoffered));
  // Copy only: every row names its tools anew, so only copying an offered name can explain them.
  const random = createRandom('test/learner/names');
  const fresh = () => `t_${random.int(100000, 999999)}`;
  const renamed = cities.flatMap((city) =>
    [0, 1, 2].flatMap(() => {
      const weather = fresh();
      const time = fresh();
      const tools = random.chance(0.5)
        ? [tool(weather, 'Weather forecast for a city.'), tool(time, 'Local clock time in a city.')]
        : [tool(time, 'Local clock time in a city.'), tool(weather, 'Weather forecast for a city.')];
      return [
        row(`weather in ${city} tomorrow?`, weather, tools),
        row(`what time is it in ${city}?`, time, tools),
      ];
    }),
  );
  await writeFile(join(folder, 'renamed.jsonl'), jsonl(renamed));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const ask = (question: string) => [
  { role: 'system', content: 'You answer travel questions with the tools.' },
  { role: 'user', content: question },
];

describe('learner', () => {
  it('splits identifiers and folds digits', () => {
    expect(words('getPriceAndCoupons link_id 42 价格')).toEqual([
      'get',
      'price',
      'and',
      'coupons',
      'link',
      'id',
      '#',
      '价',
      '格',
    ]);
  });

  it('writes a name the prompt does not offer (the generator route)', async () => {
    const { learner, report } = await trainLearner(join(folder, 'unoffered.jsonl'), { seed: 1, steps: 150 });
    expect(report.finalLoss).toBeLessThan(report.initialLoss);
    const decided = learner.decide(ask('weather in Rome tomorrow?'), [
      tool('forecast_lookup', 'Weather forecast for a city.') as never,
    ]);
    expect(decided.calls.map((call) => call.name)).toEqual(['get_weather']);
  });

  it('copies an offered name it never saw in training (the copy route)', async () => {
    const { learner, report } = await trainLearner(join(folder, 'renamed.jsonl'), { seed: 1, steps: 200 });
    expect(report.finalLoss).toBeLessThan(report.initialLoss / 2);
    const tools = [
      tool('zz_time_clock', 'Local clock time in a city.'),
      tool('zz_sky_report', 'Weather forecast for a city.'),
    ];
    const { message, decisions } = learner.trace(ask('weather in Rome tomorrow?'), tools as never);
    expect(message.calls.map((call) => call.name)).toEqual(['zz_sky_report']);
    const action = decisions.find((decision) => decision.slot === 'action');
    expect(action?.offeredChosen).toBe(true);
    expect(action?.generatedChosen).toBe(false);
    expect(
      learner.decide(ask('what time is it in Rome?'), tools as never).calls.map((call) => call.name),
    ).toEqual(['zz_time_clock']);
  });

  it('trains the same learner from the same file and seed', async () => {
    const first = await trainLearner(join(folder, 'renamed.jsonl'), { seed: 7, steps: 40 });
    const second = await trainLearner(join(folder, 'renamed.jsonl'), { seed: 7, steps: 40 });
    expect(second.report).toEqual(first.report);
  });

  it('rejects a file that is not a TRL export, naming the line', async () => {
    await writeFile(
      join(folder, 'bad.jsonl'),
      '{"messages":[{"role":"user","content":"x"}],"tools":"[]"}\n{"rows":1}\n',
    );
    await expect(trainLearner(join(folder, 'bad.jsonl'), { seed: 1 })).rejects.toThrow(
      /bad\.jsonl:2: not a TRL row/,
    );
  });

  it('plays an episode through the runtime as a ChatModel', async () => {
    const { learner } = await trainLearner(join(folder, 'renamed.jsonl'), { seed: 1, steps: 60 });
    const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const calls: string[] = [];
    const context = JSON.parse(await readFile('fixtures/livestream/contexts/example.json', 'utf8'));
    const run = await runAgent({
      harness,
      context,
      model: learnerChatModel(learner),
      tools: toolsFromFunctions(
        Object.fromEntries(
          harness.tools.items.map((item) => [
            item.name,
            () => {
              calls.push(item.name);
              return { ok: true };
            },
          ]),
        ),
      ),
      userMessages: ['link 4 price?'],
      maxStepsPerTurn: 4,
    });
    const assistant = run.messages.filter((message) => message.role === 'assistant');
    expect(assistant.length).toBeGreaterThan(0);
    expect(run.turnEnds).toHaveLength(1);
  });
});
