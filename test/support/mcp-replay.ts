// The MCP acceptance drive, shared by the stdio and Streamable HTTP tests: record gold trajectories by
// playing scripts through the runtime against a scratch server, then replay them through the replay
// scenario under the base harness against one server and under variants (renamed tools and parameters)
// against another, and read back each server's own state.

import { renameTools } from '../../perturbations/tools/rename.js';
import { renameParameters } from '../../perturbations/tools/rename-parameters.js';
import type { McpBackendFactory } from '../../src/adapters/mcp/index.js';
import { augmentExample } from '../../src/augment/augment.js';
import { op, pipe } from '../../src/augment/plan.js';
import { hashHarness } from '../../src/harness/hash.js';
import { importMcpTools } from '../../src/harness/importers/mcp-tools.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { runTurn } from '../../src/runtime/agent-loop.js';
import { Episode } from '../../src/runtime/episode.js';
import type { ScenarioVariant } from '../../src/runtime/scenario.js';
import { createReplayScenario, ScriptedModel } from '../../src/scenarios/replay/index.js';
import type { AssistantMessage, Trajectory } from '../../src/trajectory/schema.js';
import { type PlayedEpisode, playScenario } from './replay-play.js';

/** A harness around the server's tools: one skill to load before replying, and two hooks. */
export function harnessFor(listed: McpBackendFactory['listed'], id: string): Harness {
  return parseHarness({
    id,
    skills: {
      version: '1',
      items: [
        {
          id: 'note_taking',
          kind: 'reply',
          description: 'Record what the user tells you',
          body: '- Record each fact with the tools before you confirm it.\n- Confirm in one short sentence.',
        },
      ],
    },
    hooks: {
      version: '1',
      items: [
        {
          id: 'valid_arguments',
          stage: 'pre_tool',
          check: { type: 'tool_arguments' },
          onFail: { action: 'retry', maxRetries: 1, feedback: 'Fix the arguments of {{tool}}.' },
        },
        {
          id: 'skill_first',
          stage: 'pre_reply',
          check: { type: 'skill_loaded', kind: 'reply', scope: 'turn' },
          onFail: { action: 'retry', maxRetries: 1, feedback: 'Load a skill with load_skill first.' },
        },
      ],
    },
    prompt: {
      version: '1',
      sections: [
        { id: 'role', title: 'Role', template: 'You keep notes for {{harness.id}}.', pinned: true },
        { id: 'tools', title: 'Tools', template: '{{#each tools}}- {{name}}: {{description}}\n{{/each}}' },
      ],
    },
    tools: { version: '1', items: importMcpTools({ tools: listed }) },
  });
}

export const call = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});
export const calls = (...toolCalls: ReturnType<typeof call>[]): AssistantMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: toolCalls,
});
export const reply = (content: string): AssistantMessage => ({ role: 'assistant', content });
export const load = (id: string) => calls(call(id, 'load_skill', { skill_id: 'note_taking' }));

/** What each gold conversation says and does (tool names and arguments of the base harness). */
export const goldScripts: { id: string; turns: { user: string; script: AssistantMessage[] }[] }[] = [
  {
    id: 'mem-1',
    turns: [
      {
        user: 'Ada Lovelace is a mathematician who wrote the first program.',
        script: [
          load('c1'),
          calls(
            call('c2', 'create_entities', {
              entities: [
                {
                  name: 'Ada Lovelace',
                  entityType: 'person',
                  observations: ['mathematician', 'wrote the first program'],
                },
                { name: 'Analytical Engine', entityType: 'machine', observations: ['designed by Babbage'] },
              ],
            }),
          ),
          calls(
            call('c3', 'create_relations', {
              relations: [{ from: 'Ada Lovelace', to: 'Analytical Engine', relationType: 'programmed' }],
            }),
          ),
          reply('Noted: Ada Lovelace programmed the Analytical Engine.'),
        ],
      },
    ],
  },
  {
    id: 'mem-2',
    turns: [
      {
        user: 'Grace Hopper built the first compiler, and she worked on the Mark I.',
        script: [
          load('d1'),
          // A wrong first attempt that the argument hook rejects, then the corrected call.
          calls(call('d2', 'create_entities', { entities: [{ name: 'Grace Hopper' }] })),
          calls(
            call('d3', 'create_entities', {
              entities: [
                { name: 'Grace Hopper', entityType: 'person', observations: ['built the first compiler'] },
                { name: 'Harvard Mark I', entityType: 'machine', observations: [] },
              ],
            }),
          ),
          calls(
            call('d4', 'create_relations', {
              relations: [{ from: 'Grace Hopper', to: 'Harvard Mark I', relationType: 'worked_on' }],
            }),
          ),
          reply('Noted: Grace Hopper worked on the Harvard Mark I.'),
        ],
      },
      {
        user: 'Also, she was a rear admiral.',
        script: [
          load('d5'),
          calls(
            call('d6', 'add_observations', {
              observations: [{ entityName: 'Grace Hopper', contents: ['rear admiral'] }],
            }),
          ),
          reply('Added: rear admiral.'),
        ],
      },
    ],
  },
  {
    id: 'mem-3',
    turns: [
      {
        user: 'Ada Lovelace knew Charles Babbage.',
        script: [
          load('e1'),
          calls(
            call('e2', 'create_entities', {
              entities: [{ name: 'Charles Babbage', entityType: 'person', observations: ['inventor'] }],
            }),
            call('e3', 'add_observations', {
              observations: [{ entityName: 'Ada Lovelace', contents: ['knew Charles Babbage'] }],
            }),
          ),
          calls(
            call('e4', 'create_relations', {
              relations: [
                { from: 'Ada Lovelace', to: 'Charles Babbage', relationType: 'knew' },
                { from: 'Charles Babbage', to: 'Analytical Engine', relationType: 'designed' },
              ],
            }),
          ),
          reply('Noted: Ada Lovelace knew Charles Babbage.'),
        ],
      },
    ],
  },
];

/** A gold conversation to record: what the user says and what the agent does, turn by turn. */
export type GoldScript = (typeof goldScripts)[number];

/** Records the gold trajectories by playing the scripts through the runtime against `server`. */
export async function recordGolds(
  harness: Harness,
  server: McpBackendFactory,
  scripts: readonly GoldScript[] = goldScripts,
): Promise<Trajectory[]> {
  const golds: Trajectory[] = [];
  for (const { id, turns } of scripts) {
    const backend = await server(
      { id, context: {}, task: { id, turns: [] } },
      { base: harness, seed: 'gold' },
    );
    const episode = new Episode({ harness, tools: backend });
    const model = new ScriptedModel(turns.map((turn) => turn.script));
    for (const [index, turn] of turns.entries()) {
      await episode.user(turn.user);
      model.startTurn(index);
      await runTurn(episode, model);
    }
    episode.close();
    if (model.deviations.length > 0) throw new Error(`${id}: ${model.deviations.join('; ')}`);
    golds.push({
      ...episode.trajectory(id),
      harness: { id: harness.id, hash: hashHarness(harness).harness },
    });
  }
  return golds;
}

/** Renames every tool (opaque names) and every parameter name, nested ones too. */
export const renamePlan = pipe(
  op(renameTools, { style: 'opaque' }, { severity: 1 }),
  op(renameParameters, { style: 'camel' }, { severity: 1 }),
);

/** A certified variant per gold under `renamePlan`. */
export async function variantFor(base: Harness, gold: Trajectory): Promise<ScenarioVariant> {
  const result = await augmentExample(base, gold, 0, { plan: renamePlan, seed: 'mcp' });
  if (!('row' in result))
    throw new Error(`no variant for ${gold.id}: ${JSON.stringify(result.reject.issues)}`);
  return { id: result.row.variantId, harness: result.row.harness, relabel: result.row.relabel };
}

/** Replays the golds through the replay scenario with `server` as every tool's backend. */
export async function replayAgainst(
  base: Harness,
  golds: Trajectory[],
  server: McpBackendFactory,
  variants: Map<string, ScenarioVariant> | undefined,
): Promise<PlayedEpisode[]> {
  // The scenario is not closed here: the caller reads the server's state back, then closes the server.
  const scenario = createReplayScenario({ trajectories: golds, backends: { default: server } });
  return playScenario(scenario, base, {
    ...(variants ? { variant: async (id: string) => variants.get(id) } : {}),
  });
}

/** The server's knowledge graph as `read_graph` returns it, parsed. */
export async function readGraph(server: McpBackendFactory, base: Harness): Promise<unknown> {
  const backend = await server(
    { id: 'read', context: {}, task: { id: 'read', turns: [] } },
    { base, seed: 'read' },
  );
  const outcome = await backend.call(
    { id: 'read', name: 'read_graph', arguments: {}, rawArguments: '{}' },
    { harness: base, signal: new AbortController().signal, callIndex: 0 },
  );
  if (outcome.error) throw new Error(outcome.content);
  return JSON.parse(outcome.content);
}
