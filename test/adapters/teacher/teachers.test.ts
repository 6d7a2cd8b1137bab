// The SFT stage's teachers: replay hands back the certified carry-over (or the gold under the base), the
// oracle plays simulated episodes again (and skips dataset tasks, saying why), and the OpenAI-compatible
// teacher redoes a dataset task against an endpoint with its tools answered from the gold's recorded results.
import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../../../src/adapters/openai/index.js';
import type { ChatCompletionRequest } from '../../../src/adapters/openai/wire-types.js';
import {
  openAICompatibleTeacher,
  oracleTeacher,
  replayTeacher,
} from '../../../src/adapters/teacher/index.js';
import { type AugmentRow, augmentExample } from '../../../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../../../src/augment/policy.js';
import type { Registry } from '../../../src/augment/registry.js';
import { builtinRegistry } from '../../../src/cli/operators-registry.js';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import { createRunContext } from '../../../src/harness/run-context.js';
import type { Harness } from '../../../src/harness/schema.js';
import { parsePipelineConfig } from '../../../src/pipeline/config.js';
import { readInputs } from '../../../src/pipeline/inputs.js';
import type { BaseTask, TeacherRequest } from '../../../src/pipeline/teacher.js';
import { taskFromTrajectory } from '../../../src/runtime/episode-task.js';
import {
  createLivestreamScenario,
  type PlanEntry,
  runOracleEpisode,
} from '../../../src/scenarios/livestream/index.js';
import type { AssistantMessage, Message, Trajectory } from '../../../src/trajectory/schema.js';
import { validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import {
  type FakeAnswer,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from '../../support/fake-openai-server.js';

const fixture = new URL('../../../fixtures/livestream/', import.meta.url);
const harnessFile = new URL('harness.yaml', fixture).pathname;

let base: Harness;
let registry: Registry;
/** ls-0001: a skill load, a price lookup, a reply a hook rejects, the feedback, the good reply. */
let datasetTask: BaseTask;
let simulatedTasks: BaseTask[];
/** The live-stream plan entry a simulated task replays. */
const entryOf = (task: BaseTask) => task.episode!.episode.meta!.entry as PlanEntry;

beforeAll(async () => {
  base = await loadHarnessFile(harnessFile);
  registry = await builtinRegistry();
  const line = (await readFile(new URL('trajectories.jsonl', fixture), 'utf8')).split('\n')[0]!;
  const gold = JSON.parse(line) as Trajectory;
  datasetTask = { id: gold.id, trajectory: gold, task: taskFromTrajectory(gold, base) };
  const config = parsePipelineConfig({
    harness: harnessFile,
    inputs: { simulate: { scenario: 'livestream', episodes: 3, seed: 'teachers-test' } },
  });
  simulatedTasks = [];
  for await (const item of readInputs(
    config,
    base,
    createRunContext(),
    undefined,
    createLivestreamScenario(),
  ))
    if ('task' in item) simulatedTasks.push(item.task);
});

/** A certified variant of `task` that renames every registry tool (opaque names) and then parameters. */
async function toolsVariant(task: BaseTask): Promise<AugmentRow> {
  const policy = parsePolicy({
    severity: 'heavy',
    dimensions: {
      tools: { operators: [{ op: 'tools/rename', params: { style: 'opaque' } }] },
      hooks: { operators: ['hooks/reword-feedback'] },
    },
  });
  const plan = compilePolicy(policy, registry);
  const result = await augmentExample(base, task.trajectory, 0, { plan, seed: 'teachers', severity: 1 });
  if (!('row' in result)) throw new Error(`no variant: ${result.reject.reason}`);
  return result.row;
}

function variantRequest(task: BaseTask, row: AugmentRow): TeacherRequest {
  return {
    base,
    task,
    unitId: `${task.id}/0`,
    variant: { id: row.variantId, harness: row.harness, relabel: row.relabel, rewritten: row.trajectory },
  };
}

const toolNames = (trajectory: Trajectory) =>
  trajectory.messages.flatMap((message) =>
    message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.function.name) : [],
  );

describe('replayTeacher', () => {
  it('returns the gold under the base harness and the certified carry-over under a variant', async () => {
    const teacher = replayTeacher();
    expect(teacher).toMatchObject({ name: 'replay', exact: true });
    const onBase = await teacher.generate({ base, task: datasetTask, unitId: `${datasetTask.id}/base` });
    expect(onBase).toEqual({ trajectory: datasetTask.trajectory });

    const row = await toolsVariant(datasetTask);
    const onVariant = await teacher.generate(variantRequest(datasetTask, row));
    expect(onVariant).toEqual({ trajectory: row.trajectory });
    // It is the variant's vocabulary, valid under the variant harness.
    expect(toolNames(row.trajectory)).not.toEqual(toolNames(datasetTask.trajectory));
    expect(validateTrajectory(row.trajectory, row.harness).valid).toBe(true);
    expect(row.certificate).toBeDefined();
  });
});

describe('oracleTeacher', () => {
  it('skips a task from a dataset, saying why', async () => {
    const teacher = oracleTeacher();
    expect(teacher).toMatchObject({ name: 'oracle', exact: false });
    const result = await teacher.generate({ base, task: datasetTask, unitId: 'ls-0001/base' });
    expect(result).toEqual({ skip: expect.stringMatching(/simulated episodes only.*inputs\.simulate/) });
  });

  it('plays a simulated episode again under the base harness', async () => {
    expect(simulatedTasks).toHaveLength(3);
    for (const task of simulatedTasks) {
      const result = await oracleTeacher().generate({ base, task, unitId: `${task.id}/base` });
      const again = await runOracleEpisode({ entry: entryOf(task), seed: task.episode!.seed, base });
      expect(result).toEqual({ trajectory: { ...again.trajectory, id: task.id } });
      // The simulated input itself was played the same way.
      expect(result).toEqual({ trajectory: task.trajectory });
    }
  });

  it('plays it under a variant in the variant’s vocabulary', async () => {
    const task = simulatedTasks.find((candidate) => toolNames(candidate.trajectory).length > 1)!;
    const row = await toolsVariant(task);
    const result = await oracleTeacher().generate(variantRequest(task, row));
    if (!('trajectory' in result)) throw new Error(result.skip);
    const again = await runOracleEpisode({
      entry: entryOf(task),
      seed: task.episode!.seed,
      base,
      variant: { harness: row.harness, relabel: row.relabel },
    });
    expect(result.trajectory).toEqual({ ...again.trajectory, id: task.id });
    expect(validateTrajectory(result.trajectory, row.harness).valid).toBe(true);
    expect(toolNames(result.trajectory)).toEqual(toolNames(row.trajectory));
  });
});

describe('openAICompatibleTeacher on a dataset task', () => {
  let server: FakeOpenAIServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /**
   * A model that says what `script` says: the assistant message after those already in the request
   * (the harness's own block and fallback turns count, as they are in the request too).
   */
  async function scriptedTeacher(script: Trajectory, edit?: (answer: FakeAnswer) => FakeAnswer) {
    const assistants = script.messages.filter(
      (message): message is AssistantMessage => message.role === 'assistant',
    );
    server = await startFakeOpenAIServer({
      respond: (request) => {
        const next = assistants[request.messages.filter((message) => message.role === 'assistant').length];
        // Past the script (the conversation went elsewhere): a plain reply.
        if (!next) return { content: 'Sorry, I cannot find that link in the room.' };
        const answer: FakeAnswer = next.tool_calls
          ? {
              content: next.content,
              tool_calls: next.tool_calls.map((call) => ({
                id: call.id,
                name: call.function.name,
                arguments: call.function.arguments,
              })),
            }
          : { content: next.content ?? '' };
        return edit ? edit(answer) : answer;
      },
    });
    const model = createOpenAICompatible({ baseURL: server.url, maxRetries: 0 });
    return openAICompatibleTeacher({ model, request: { model: 'teacher-model', temperature: 0 } });
  }

  const toolResults = (messages: readonly Message[]) =>
    messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []));

  it('answers tool calls with the gold’s recorded results under the base harness', async () => {
    const gold = datasetTask.trajectory;
    const teacher = await scriptedTeacher(gold);
    expect(teacher).toMatchObject({ name: 'openai-compatible', exact: false });
    const result = await teacher.generate({ base, task: datasetTask, unitId: 'ls-0001/base' });
    if (!('trajectory' in result)) throw new Error(result.skip);
    // The same conversation: prompt, calls, recorded results, the hook's rejection and feedback, the reply.
    expect(result.trajectory.id).toBe(gold.id);
    expect(result.trajectory.messages).toEqual(gold.messages);
    expect(toolResults(result.trajectory.messages)).toContain(
      toolResults(gold.messages).find((content) => content.includes('"live_price":69')),
    );
    const bodies = server!.requests.map((request) => request.body as ChatCompletionRequest);
    expect(bodies.length).toBe(gold.messages.filter((message) => message.role === 'assistant').length);
    expect(bodies[0]).toMatchObject({ model: 'teacher-model', temperature: 0 });
    expect(bodies[0]!.tools?.map((tool) => tool.function.name)).toEqual(
      gold.tools?.map((tool) => tool.function.name),
    );
  });

  it('maps a variant’s renamed calls back to the gold’s results', async () => {
    const row = await toolsVariant(datasetTask);
    // The model speaks the variant's vocabulary: the rewritten gold's calls, with renamed tools and parameters.
    const teacher = await scriptedTeacher(row.trajectory);
    const result = await teacher.generate(variantRequest(datasetTask, row));
    if (!('trajectory' in result)) throw new Error(result.skip);
    expect(toolNames(result.trajectory)).toEqual(toolNames(row.trajectory));
    expect(toolNames(result.trajectory)).not.toContain('get_price_and_coupons');
    expect(toolResults(result.trajectory.messages)).toEqual(toolResults(row.trajectory.messages));
    // The whole conversation is the rewritten gold: the variant's prompt and its reworded hook feedback too.
    expect(result.trajectory.messages).toEqual(row.trajectory.messages);
    const feedback = (trajectory: Trajectory) =>
      trajectory.messages.find((message) => message.role === 'user' && message.hsa)?.content;
    expect(feedback(result.trajectory)).toBeDefined();
    expect(feedback(result.trajectory)).not.toBe(feedback(datasetTask.trajectory));
    expect(validateTrajectory(result.trajectory, row.harness).valid).toBe(true);
    const offered = server!.requests.map((request) => (request.body as ChatCompletionRequest).tools);
    expect(offered[0]).toEqual(row.trajectory.tools);
  });

  it('matches arguments canonically, and has no result for other arguments', async () => {
    const gold = datasetTask.trajectory;
    const priceCall = gold.messages
      .flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []) : []))
      .find((call) => call.function.name === 'get_price_and_coupons')!;
    const recorded = gold.messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === priceCall.id,
    )!.content;

    // The same arguments written differently still get the recorded result.
    let teacher = await scriptedTeacher(gold, (answer) => ({
      ...answer,
      tool_calls: answer.tool_calls?.map((call) =>
        call.id === priceCall.id ? { ...call, arguments: '{ "link_id" : 4 }' } : call,
      ),
    }));
    let result = await teacher.generate({ base, task: datasetTask, unitId: 'ls-0001/base' });
    if (!('trajectory' in result)) throw new Error(result.skip);
    expect(toolResults(result.trajectory.messages)).toContain(recorded);
    await server!.close();

    // Another link was never looked up: the tool answers with an error, not with the recorded result.
    teacher = await scriptedTeacher(gold, (answer) => ({
      ...answer,
      tool_calls: answer.tool_calls?.map((call) =>
        call.id === priceCall.id ? { ...call, arguments: '{"link_id":5}' } : call,
      ),
    }));
    result = await teacher.generate({ base, task: datasetTask, unitId: 'ls-0001/base' });
    if (!('trajectory' in result)) throw new Error(result.skip);
    const answer = result.trajectory.messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === priceCall.id,
    );
    expect(answer?.content).toMatch(/no recorded result for get_price_and_coupons/);
    expect(toolResults(result.trajectory.messages)).not.toContain(recorded);
  });
});
