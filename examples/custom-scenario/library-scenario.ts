// A scenario for the library-desk harness (harness.yaml beside this file): seeded episodes, a module of
// functions as the tool backend, a scripted oracle. `hsa sim run --scenario <this file>` loads it.
import { createRandom, type Message, relabelMessages, type ToolCall } from 'harness-augment';
import { Episode, isToolError, type Scenario, toolsFromFunctions } from 'harness-augment/runtime';

const titles = ['Dune', 'Emma', 'Ulysses', 'Beloved', 'Middlemarch', 'Persuasion'];

export const scenario: Scenario = {
  name: 'library-desk',
  check: (harness) =>
    ['find_book', 'reserve_book']
      .filter((name) => !harness.tools.items.some((tool) => tool.name === name))
      .map((name) => ({ code: 'missing_tool', path: ['tools'], message: `the harness lacks ${name}` })),
  defaultEpisodes: () => titles.length,
  plan: ({ episodes = titles.length }) =>
    Array.from({ length: episodes }, (_, index) => ({ id: `lib-${index + 1}`, index })),
  async episode(planned, { seed }) {
    // Every draw comes from a fork named after the episode: same seed, same episode, on any machine.
    const random = createRandom(`${seed}:${planned.id}`);
    const title = random.fork('title').pick(titles);
    const days = random.fork('days').int(7, 21);
    const user = `Could you reserve ${title} for ${days} days?`;
    return {
      id: planned.id,
      context: { branch: 'Riverside' },
      task: {
        id: planned.id,
        turns: [
          {
            user,
            intents: ['reserve'],
            skills: ['loans'],
            tools: ['find_book', 'reserve_book'],
            facts: [title],
          },
        ],
      },
      meta: { title, days },
    };
  },
  // A fresh backend per episode: its reservations are the episode's own state. Calls arrive in the base
  // vocabulary whatever the variant calls the tools.
  backend(episode) {
    const reserved: string[] = [];
    return toolsFromFunctions({
      find_book: ({ title }) => ({ book_id: `bk-${String(title).toLowerCase()}`, copies: 2 }),
      reserve_book: ({ book_id, days }) => {
        reserved.push(String(book_id));
        return { ok: true, book_id, days, reserved: reserved.length, episode: episode.id };
      },
    });
  },
  oracle: {
    // Plays the script in the base vocabulary, moved into the played harness's names by the variant's
    // relabel; a call that fails (a fault) is made again, up to three times. The episode plays in the
    // run the library gives (its hook checks; `hookChecks` alone where a caller gives no run).
    async play({ base, episode, variant, tools, run, hookChecks }) {
      const harness = variant?.harness ?? base;
      const live = new Episode({ harness, context: episode.context, tools, run, hookChecks });
      const say = (message: Message) =>
        live.assistant(variant ? relabelMessages([message], variant.relabel, 'forward', false)[0]! : message);
      let calls = 0;
      const call = (name: string, args: unknown) => ({
        id: `call_${++calls}`,
        type: 'function' as const,
        function: { name, arguments: JSON.stringify(args) },
      });
      const attempt = async (name: string, args: unknown, first: ToolCall[] = []) => {
        for (let tries = 0; tries < 3 && live.turnOpen; tries++) {
          const tool_calls = [...(tries === 0 ? first : []), call(name, args)];
          const seen = await say({ role: 'assistant', content: null, tool_calls });
          const result = seen.tools.at(-1);
          if (result && !isToolError(result.content))
            return JSON.parse(result.content) as Record<string, unknown>;
        }
        deviations.push(`${name} failed three times`);
        return undefined;
      };
      const deviations: string[] = [];
      const { title, days } = episode.meta as { title: string; days: number };
      const loader = base.skills.loader;
      await live.user(episode.task.turns[0]!.user);
      const found = await attempt('find_book', { title }, [
        call(loader.tool, { [loader.argument]: 'loans' }),
      ]);
      const reserved = found && (await attempt('reserve_book', { book_id: found.book_id, days }));
      if (live.turnOpen)
        await say({
          role: 'assistant',
          content: reserved
            ? `Reserved ${title} for ${days} days.`
            : 'Sorry, the catalogue is not answering.',
        });
      return { trajectory: live.trajectory(episode.id), deviations, toolLog: live.toolLog };
    },
  },
};
