import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addOptionalParameters } from '../../../perturbations/tools/add-optional-parameters.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { importMcpTools } from '../../../src/harness/importers/mcp-tools.js';
import { loadHarnessFile, parseHarness } from '../../../src/harness/parse-harness.js';
import type { HarnessInput } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { filesystemServerScript, memoryServerScript, rawToolsList } from '../../support/mcp-servers.js';
import { projectRoot } from '../../support/run-cli.js';
import {
  baggageTrajectory,
  call,
  result,
  travelHarness,
  travelHarnessInput,
} from '../../support/travel-harness.js';
import { flightCase } from './flight-case.js';

const harness = travelHarness();
const applied = (output: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in output) throw new Error(`skipped: ${output.skip}`);
  return output;
};
const keys = (output: AppliedOperator) =>
  output.harness.tools.items.map((tool) => Object.keys(tool.parameters.properties as object));
const withTools = (items: HarnessInput['tools']['items']) => {
  const input = travelHarnessInput();
  input.tools.items = items;
  input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
  return parseHarness(input);
};

describe('tools/add-optional-parameters', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(addOptionalParameters, { cases: [...(await lawCases()), flightCase()] });
  });

  it('adds optional parameters at random positions, more with severity (golden)', async () => {
    const low = applied(
      await applyOperator(addOptionalParameters, harness, { rng: 'golden', severity: 0.3 }),
    );
    expect(keys(low)).toEqual([
      ['origin', 'destination', 'date', 'filters'],
      ['trace', 'flight', 'passengers'],
      ['fare_class'],
    ]);
    // No result-shaping parameter: no tool here says it returns fields (`hold_seat` writes).
    const high = applied(await applyOperator(addOptionalParameters, harness, { rng: 'golden', severity: 1 }));
    expect(keys(high)).toEqual([
      ['origin', 'destination', 'request_id', 'trace', 'timezone', 'date', 'filters'],
      ['request_id', 'client_version', 'flight', 'passengers', 'trace'],
      ['client_version', 'locale', 'fare_class', 'request_id'],
    ]);
    expect(high.harness.tools.items.map((tool) => tool.parameters.required)).toEqual(
      harness.tools.items.map((tool) => tool.parameters.required),
    );
    expect(high.relabel.steps).toEqual([]);
    expect(
      applied(await applyOperator(addOptionalParameters, harness, { rng: 'z', severity: 0 })).harness,
    ).toBe(harness);
  });

  it('adds nothing a parameter of the tool already controls, and nothing that promises a safe retry', async () => {
    const github = withTools([
      {
        name: 'get_commit',
        description: 'Get a commit.',
        parameters: {
          type: 'object',
          properties: { sha: { type: 'string' }, detail: { type: 'string', enum: ['stats', 'full'] } },
        },
      },
      {
        name: 'get_job_logs',
        description: 'Get the logs of a job.',
        parameters: {
          type: 'object',
          properties: { job_id: { type: 'string' }, return_content: { type: 'boolean' } },
        },
      },
    ]);
    const added = new Map<string, Set<string>>();
    for (let seed = 0; seed < 30; seed++) {
      const result = applied(
        await applyOperator(addOptionalParameters, github, { rng: `s${seed}`, severity: 1 }),
      );
      for (const tool of result.harness.tools.items) {
        const names = added.get(tool.name) ?? new Set<string>();
        for (const key of Object.keys(tool.parameters.properties ?? {})) names.add(key);
        added.set(tool.name, names);
      }
    }
    const commit = added.get('get_commit') as Set<string>;
    const logs = added.get('get_job_logs') as Set<string>;
    expect(commit.size).toBeGreaterThan(2);
    for (const name of ['verbose', 'include_details', 'idempotency_key'])
      expect(commit.has(name), name).toBe(false);
    expect(logs.size).toBeGreaterThan(2);
    for (const name of ['response_format', 'idempotency_key']) expect(logs.has(name), name).toBe(false);
  });

  // An audit on the MCP git server: `timezone` went onto `git_log`, whose `start_timestamp` reads times.
  it('counts a parameter word that starts with a control word: no timezone beside start_timestamp', async () => {
    const git = withTools([
      {
        name: 'git_log',
        description: 'Shows the commit logs.',
        parameters: {
          type: 'object',
          properties: { repo_path: { type: 'string' }, start_timestamp: { type: 'string' } },
        },
      },
    ]);
    const added = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const result = applied(
        await applyOperator(addOptionalParameters, git, { rng: `t${seed}`, severity: 1 }),
      );
      const log = result.harness.tools.items.find((tool) => tool.name === 'git_log');
      for (const key of Object.keys(log?.parameters.properties ?? {})) added.add(key);
    }
    expect(added.size).toBeGreaterThan(3);
    expect(added.has('timezone')).toBe(false);
  });

  it('never adds a name that the calls already use as a key', async () => {
    const open = withTools([
      {
        name: 'get_forecast',
        description: 'Forecast for a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ]);
    const first = open.skills.items[0]!;
    const draft: Trajectory = {
      ...baggageTrajectory(),
      messages: [
        { role: 'system', content: '' },
        { role: 'user', content: 'Weather in Porto?' },
        call('load_skill', JSON.stringify({ skill_id: first.id }), 'w1'),
        result('w1', ''),
        // Extra keys are allowed here (no additionalProperties): `locale` is already taken by the call.
        call('get_forecast', '{"city":"Porto","locale":5,"verbose":"yes","timezone":null}', 'w2'),
        result('w2', '{"sky":"clear"}'),
        { role: 'assistant', content: 'Clear skies in Porto.' },
      ],
    };
    const trajectory = validateTrajectory(rederiveTrajectory(draft, open).trajectory, open);
    expect(trajectory.issues).toEqual([]);
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const output = applied(
        await applyOperator(addOptionalParameters, open, {
          rng: seed,
          severity: 1,
          trajectory: trajectory.trajectory!,
        }),
      );
      const added = keys(output)[0]!.filter((key) => key !== 'city');
      expect(added).toHaveLength(3);
      for (const used of ['locale', 'verbose', 'timezone']) expect(added).not.toContain(used);
    }
  });

  it('adds no timezone where the harness speaks of time zones (τ-bench retail: EST)', async () => {
    const retail = await loadHarnessFile(
      join(projectRoot, 'test/demo/fixtures/tau-bench-retail/harness.yaml'),
    );
    const names = (base: typeof retail) => async (seed: number) => {
      const output = await applyOperator(addOptionalParameters, base, { rng: `tz/${seed}`, severity: 1 });
      if ('skip' in output) return [];
      return output.harness.tools.items.flatMap((tool) =>
        Object.keys((tool.parameters.properties as Record<string, unknown> | undefined) ?? {}),
      );
    };
    const added = (await Promise.all(Array.from({ length: 16 }, (_, seed) => names(retail)(seed)))).flat();
    expect(added.length).toBeGreaterThan(0);
    expect(added).not.toContain('timezone');
    // A harness that says nothing of time zones may still take it.
    const travel = (await Promise.all(Array.from({ length: 16 }, (_, seed) => names(harness)(seed)))).flat();
    expect(travel).toContain('timezone');
  });

  it('leaves tools alone whose additionalProperties is a schema, and skips when none is left', async () => {
    const constrained = withTools([
      {
        name: 'tag_item',
        description: 'Sets tags.',
        parameters: {
          type: 'object',
          properties: { item: { type: 'string' } },
          additionalProperties: { type: 'string' },
        },
      },
    ]);
    expect(await applyOperator(addOptionalParameters, constrained, { rng: 'x' })).toEqual({
      skip: 'no tool can take a new optional parameter',
    });
  });

  // The MCP filesystem and memory servers as npm ships them (their own tools/list, read off stdio): audits
  // found `fields` on write_file and move_file, `timezone` on create_directory, a `locale` beside
  // get_current_time's own zone, and `fields` and `verbose` on OpenHands' think and finish.
  it('adds a parameter only where it fits the tool (real MCP filesystem and memory servers)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsa-optional-fit-'));
    const listed = [
      await rawToolsList([filesystemServerScript, dir]),
      await rawToolsList([memoryServerScript], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
    ].flatMap((text) => importMcpTools(JSON.parse(text)));
    const servers = withTools([
      ...listed,
      // OpenHands' CodeAct tools (All-Hands-AI/OpenHands at 156d0686, MIT): a think that only logs, a finish.
      {
        name: 'think',
        description:
          'Use the tool to think about something. It will not obtain new information or make any changes to the repository, but just log the thought. Use it when complex reasoning or brainstorming is needed.\n\nCommon use cases:\n1. When exploring a repository and discovering the source of a bug, call this tool to brainstorm several unique ways of fixing the bug, and assess which change(s) are likely to be simplest and most effective.\n2. After receiving test results, use this tool to brainstorm ways to fix failing tests.\n3. When planning a complex refactoring, use this tool to outline different approaches and their tradeoffs.\n4. When designing a new feature, use this tool to think through architecture decisions and implementation details.\n5. When debugging a complex issue, use this tool to organize your thoughts and hypotheses.\n\nThe tool simply logs your thought process for better transparency and does not execute any code or make changes.',
        parameters: {
          type: 'object',
          properties: { thought: { type: 'string', description: 'The thought to log.' } },
          required: ['thought'],
        },
      },
      {
        name: 'finish',
        description:
          "Signals the completion of the current task or conversation.\n\nUse this tool when:\n- You have successfully completed the user's requested task\n- You cannot proceed further due to technical limitations or missing information\n\nThe message should include:\n- A clear summary of actions taken and their results\n- Any next steps for the user\n- Explanation if you're unable to complete the task\n- Any follow-up questions if more information is needed\n",
        parameters: {
          type: 'object',
          required: ['message'],
          properties: { message: { type: 'string', description: 'Final message to send to the user' } },
        },
      },
      {
        name: 'get_current_time',
        description: 'Get current time in a specific timezone',
        parameters: {
          type: 'object',
          properties: { timezone: { type: 'string', description: 'IANA timezone name' } },
          required: ['timezone'],
        },
      },
    ]);
    const readOnly = new Set(
      listed.filter((tool) => tool.annotations?.readOnlyHint === true).map((tool) => tool.name),
    );
    expect(readOnly.has('read_text_file') && !readOnly.has('write_file')).toBe(true);
    const added = new Map<string, Set<string>>();
    for (let index = 0; index < 40; index++) {
      const output = applied(
        await applyOperator(addOptionalParameters, servers, { rng: `fit-${index}`, severity: 1 }),
      );
      for (const tool of output.harness.tools.items) {
        const before = servers.tools.items.find((other) => other.name === tool.name);
        const own = new Set(Object.keys(before?.parameters.properties ?? {}));
        for (const name of Object.keys(tool.parameters.properties ?? {}))
          if (!own.has(name)) added.set(name, new Set([...(added.get(name) ?? []), tool.name]));
      }
    }
    for (const shape of ['fields', 'response_format', 'include_details', 'verbose', 'locale'])
      for (const tool of added.get(shape) ?? []) expect(readOnly.has(tool), `${shape} on ${tool}`).toBe(true);
    for (const tool of ['write_file', 'edit_file', 'move_file', 'create_entities', 'delete_entities'])
      expect(added.get('fields')?.has(tool) ?? false, `fields on ${tool}`).toBe(false);
    expect(added.get('timezone')?.has('create_directory') ?? false).toBe(false);
    expect(added.get('locale')?.has('get_current_time') ?? false).toBe(false);
    for (const tool of ['think', 'finish'])
      for (const [name, tools] of added)
        if (tools.has(tool))
          expect(['request_id', 'client_version', 'trace'], `${name} on ${tool}`).toContain(name);
    // Still varied: the parameters that fit anywhere, and the result's shape on the tools that read.
    expect(added.get('request_id')?.size ?? 0).toBeGreaterThan(5);
    expect(added.get('fields')?.size ?? 0).toBeGreaterThan(0);
  });
});
