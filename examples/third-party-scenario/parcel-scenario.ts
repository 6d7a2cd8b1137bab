// A scenario written by a third party against the published entry points only (`harness-augment`): seeded
// episodes of a parcel desk, a fresh tool backend per episode, a scripted oracle, and a gold trajectory per
// episode (the script played under the base harness). `hsa sim --scenario <this file>` loads it, and
// check-laws.ts runs the scenario laws on it.
import {
  createRandom,
  type Harness,
  type Message,
  type Relabel,
  relabelMessages,
  type ToolCall,
} from 'harness-augment';
import {
  Episode,
  isToolError,
  type Scenario,
  type ScenarioEpisode,
  type ToolRuntime,
  toolsFromFunctions,
} from 'harness-augment/runtime';

const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
const depots = ['Leeds', 'Porto', 'Gdańsk'];

/** The desk's tools over one episode's parcels, in the base vocabulary. */
function parcelTools(episode: Pick<ScenarioEpisode, 'meta'>) {
  const { tracking, planned } = episode.meta as { tracking: string; planned: string };
  let day = planned;
  return toolsFromFunctions({
    track_parcel: ({ tracking_id }) => {
      if (tracking_id !== tracking) throw new Error(`no parcel ${String(tracking_id)}`);
      return { tracking_id, status: 'in_transit', delivery_day: day };
    },
    reschedule_delivery: ({ tracking_id, day: wanted }) => {
      if (tracking_id !== tracking) throw new Error(`no parcel ${String(tracking_id)}`);
      day = String(wanted);
      return { tracking_id, delivery_day: day, ok: true };
    },
  });
}

/** Plays the desk's script: load the skill, track, reschedule, confirm; a failed call is made again. */
async function playScript(
  harness: Harness,
  base: Harness,
  episode: ScenarioEpisode,
  tools: ToolRuntime,
  relabel?: Relabel,
) {
  const run = new Episode({ harness, context: episode.context, tools });
  const say = (message: Message) =>
    run.assistant(relabel ? relabelMessages([message], relabel, 'forward', false)[0]! : message);
  let calls = 0;
  const call = (name: string, args: unknown): ToolCall => ({
    id: `call_${++calls}`,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });
  const deviations: string[] = [];
  const attempt = async (name: string, args: unknown, first: ToolCall[] = []) => {
    for (let tries = 0; tries < 3 && run.turnOpen; tries++) {
      const seen = await say({
        role: 'assistant',
        content: null,
        tool_calls: [...(tries === 0 ? first : []), call(name, args)],
      });
      const result = seen.tools.at(-1);
      if (result && !isToolError(result.content)) return true;
    }
    deviations.push(`${name} failed three times`);
    return false;
  };
  const { tracking, wanted } = episode.meta as { tracking: string; wanted: string };
  const loader = base.skills.loader;
  await run.user(episode.task.turns[0]!.user);
  const tracked = await attempt('track_parcel', { tracking_id: tracking }, [
    call(loader.tool, { [loader.argument]: 'delivery-changes' }),
  ]);
  const moved = tracked && (await attempt('reschedule_delivery', { tracking_id: tracking, day: wanted }));
  if (run.turnOpen)
    await say({
      role: 'assistant',
      content: moved ? `Done: ${tracking} now arrives on ${wanted}.` : 'Sorry, tracking is not answering.',
    });
  return { trajectory: run.trajectory(episode.id), deviations, toolLog: run.toolLog };
}

export const scenario: Scenario = {
  name: 'parcel-desk',
  check: (harness) =>
    ['track_parcel', 'reschedule_delivery']
      .filter((name) => !harness.tools.items.some((tool) => tool.name === name))
      .map((name) => ({ code: 'missing_tool', path: ['tools'], message: `the harness lacks ${name}` })),
  defaultEpisodes: () => 5,
  plan: ({ episodes = 5, idPrefix = 'parcel-' }) =>
    Array.from({ length: episodes }, (_, index) => ({ id: `${idPrefix}${index + 1}`, index })),
  async episode(planned, { seed, base }) {
    // Every draw comes from a fork named after the episode: same seed, same episode, on any shard.
    const random = createRandom(`${seed}:${planned.id}`);
    const tracking = `PX${String(random.fork('tracking').int(100000, 999999))}`;
    const planned_day = random.fork('planned').pick(days);
    const wanted = random.fork('wanted').pick(days.filter((day) => day !== planned_day));
    const episode: ScenarioEpisode = {
      id: planned.id,
      context: { depot: random.fork('depot').pick(depots) },
      task: {
        id: planned.id,
        turns: [
          {
            user: `Can parcel ${tracking} come on ${wanted} instead?`,
            intents: ['reschedule'],
            skills: ['delivery-changes'],
            tools: ['track_parcel', 'reschedule_delivery'],
            facts: [tracking, wanted],
          },
        ],
      },
      meta: { tracking, planned: planned_day, wanted },
    };
    // The gold: the script under the base harness, on a backend of its own.
    episode.gold = (await playScript(base, base, episode, parcelTools(episode))).trajectory;
    return episode;
  },
  backend: (episode) => parcelTools(episode),
  oracle: {
    play: ({ base, episode, variant, tools }) =>
      playScript(variant?.harness ?? base, base, episode, tools, variant?.relabel),
  },
};

export default scenario;
