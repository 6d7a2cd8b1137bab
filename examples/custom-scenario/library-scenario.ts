// A scenario for the library-desk harness (harness.yaml beside this file): seeded episodes, a module of
// functions as the tool backend, a scripted oracle. `hsa sim run --scenario <this file>` loads it.
import {
  createRandom,
  Episode,
  type Message,
  relabelMessages,
  type Scenario,
  toolsFromFunctions,
} from '../../src/index.js';

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
    const viewer = `Could you reserve ${title} for ${days} days?`;
    return {
      id: planned.id,
      context: { branch: 'Riverside' },
      task: {
        id: planned.id,
        turns: [
          {
            viewer,
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
    // Plays the script in the base vocabulary, moved into the played harness's names by the variant's relabel.
    async play({ base, episode, variant, tools }) {
      const harness = variant?.harness ?? base;
      const run = new Episode({ harness, context: episode.context, tools });
      const say = (message: Message) =>
        run.assistant(variant ? relabelMessages([message], variant.relabel, 'forward', false)[0]! : message);
      const call = (id: string, name: string, args: unknown) => ({
        id,
        type: 'function' as const,
        function: { name, arguments: JSON.stringify(args) },
      });
      const { title, days } = episode.meta as { title: string; days: number };
      const loader = base.skills.loader;
      await run.user(episode.task.turns[0]!.viewer);
      await say({
        role: 'assistant',
        content: null,
        tool_calls: [
          call('c1', loader.tool, { [loader.argument]: 'loans' }),
          call('c2', 'find_book', { title }),
        ],
      });
      const found = JSON.parse(run.toolLog[0]!.content) as { book_id: string };
      await say({
        role: 'assistant',
        content: null,
        tool_calls: [call('c3', 'reserve_book', { book_id: found.book_id, days })],
      });
      await say({ role: 'assistant', content: `Reserved ${title} for ${days} days.` });
      return { trajectory: run.trajectory(episode.id), deviations: [], toolLog: run.toolLog };
    },
  },
};
