// Test-local builders of small hand-written trajectories and tasks against the live-stream harness.
import { join } from 'node:path';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import type { Harness } from '../../../src/harness/schema.js';
import { type EpisodeTask, EpisodeTaskSchema, type TurnTask } from '../../../src/runtime/episode-task.js';
import type { HookEvent, Message, Trajectory } from '../../../src/trajectory/schema.js';
import { projectRoot } from '../../support/run-cli.js';

export const livestreamHarness = (): Promise<Harness> =>
  loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));

/** The live-stream harness, loaded once per test file that imports the builders; never mutate it. */
export const harness: Harness = await livestreamHarness();

/** The two tools the hand-written cases call most. */
export const price = 'get_price_and_coupons';
export const size = 'recommend_size';

type Marker = Pick<HookEvent, 'event' | 'hook'>;

export const user = (content: string): Message => ({ role: 'user', content });

export const feedback = (hook: string, content = 'try again'): Message => ({
  role: 'user',
  content,
  hsa: { event: 'hook_feedback', hook },
});

/** One call: [name, arguments (a value, or the raw text when a string), id]. */
export type CallSpec = [name: string, args: unknown, id: string];

export const calls = (specs: CallSpec[], marker?: Marker): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: specs.map(([name, args, id]) => ({
    id,
    type: 'function' as const,
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  })),
  ...(marker ? { hsa: marker } : {}),
});

export const call = (name: string, args: unknown, id: string, marker?: Marker): Message =>
  calls([[name, args, id]], marker);

export const result = (id: string, content: unknown, marker?: Marker): Message => ({
  role: 'tool',
  tool_call_id: id,
  content: typeof content === 'string' ? content : JSON.stringify(content),
  ...(marker ? { hsa: marker } : {}),
});

export const reply = (content: string, marker?: Marker): Message => ({
  role: 'assistant',
  content,
  ...(marker ? { hsa: marker } : {}),
});

/** A skill load and its (accepted) result. */
export const load = (skill: string, id: string): Message[] => [
  call('load_skill', { skill_id: skill }, id),
  result(id, `# rules of ${skill}`),
];

export const trajectory = (...messages: Message[]): Trajectory => ({
  id: 'hand-made',
  context: {},
  messages: [{ role: 'system', content: 'You are the host.' }, ...messages],
});

export const task = (...turns: Array<Partial<TurnTask>>): EpisodeTask =>
  EpisodeTaskSchema.parse({ id: 'hand-made', turns: turns.map((turn) => ({ user: '', ...turn })) });

export const priceResult = {
  link_id: 4,
  list_price: 129,
  live_price: 69,
  saving_vs_list: 60,
  total: 69,
};

export const sizeResult = { link_id: 4, size: 'L', chest_cm: 112 };

export const toolError = (type = 'timeout') => ({ error: { type, message: 'the tool failed' } });

/** A successful price lookup of link 4 and its result. */
export const priceLookup = (id: string): Message[] => [
  call(price, { link_id: 4 }, id),
  result(id, priceResult),
];

/** One price turn by the book: the skill loaded, the price tool called once with its result, then `text`. */
export const priceTurn = (text = '¥69.', question = 'link 4 price?'): Trajectory =>
  trajectory(user(question), ...load('price_and_coupons', 'c1'), ...priceLookup('c2'), reply(text));
