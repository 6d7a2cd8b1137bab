// The agent loop with no network: a small tea-shop harness built in code, its tool as a plain function (with
// a seeded fault), and a scripted ChatModel standing in for an LLM. `runAgent` renders the prompt, asks the
// model, runs the tools and the hooks, and feeds back tool errors and hook feedback until each turn ends.
// Swap the scripted model for `createOpenAICompatible({ baseURL })` to drive a real endpoint.
// Run: npx tsx examples/agent-loop.ts
import { type Message, parseHarness, validateTrajectory } from 'harness-augment';
import {
  type ChatCompletion,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  isToolError,
  runAgent,
  toolsFromFunctions,
  withFaults,
} from 'harness-augment/runtime';

const harness = parseHarness({
  id: 'tea-shop',
  skills: {
    version: '1',
    items: [
      {
        id: 'pricing',
        kind: 'reply',
        description: 'Quote a tea price',
        body: '- Call `get_tea_price` before quoting.\n- Quote the price per 100 g exactly.',
      },
    ],
  },
  hooks: {
    version: '1',
    items: [
      {
        id: 'no_links',
        stage: 'input',
        check: { type: 'regex', pattern: 'https?://', mode: 'must_not' },
        onFail: { action: 'block', message: 'Links are hidden in this chat.' },
      },
      {
        id: 'skill_first',
        stage: 'pre_reply',
        check: { type: 'skill_loaded', kind: 'reply', scope: 'turn' },
        onFail: { action: 'retry', maxRetries: 1, feedback: 'Load a {{kind}} skill before replying.' },
      },
      {
        id: 'short_reply',
        stage: 'pre_reply',
        check: { type: 'max_length', max: 60 },
        onFail: {
          action: 'retry',
          maxRetries: 2,
          feedback: 'Your reply is {{length}} characters; the limit is {{max}}. Shorten it.',
        },
      },
      {
        id: 'grounded',
        stage: 'post_reply',
        check: { type: 'numbers_grounded', sources: ['tool_results', 'user'] },
        onFail: { action: 'fallback', reply: 'Let me check that price for you.' },
      },
    ],
  },
  prompt: {
    version: '1',
    sections: [
      { id: 'role', title: 'Role', template: 'You are the shop assistant of {{harness.id}}.', pinned: true },
      {
        id: 'skills',
        title: 'Skills',
        template: '{{#each skills}}- {{id}}: {{description}}\n{{/each}}Call `{{loader.tool}}` first.',
      },
    ],
  },
  tools: {
    version: '1',
    items: [
      {
        name: 'get_tea_price',
        description: 'Price of a tea per 100 g.',
        parameters: {
          type: 'object',
          properties: { tea: { type: 'string', enum: ['jasmine', 'oolong', 'pu-erh'] } },
          required: ['tea'],
          additionalProperties: false,
        },
      },
    ],
  },
});

const prices: Record<string, number> = { jasmine: 12.5, oolong: 18, 'pu-erh': 26 };
// Seed "tea-4" at a 30% rate makes the first registry call time out and the second succeed.
const tools = withFaults(
  toolsFromFunctions({
    get_tea_price: ({ tea }) => ({ tea, price: prices[String(tea)], per_grams: 100 }),
  }),
  { rate: 0.3, seed: 'tea-4' },
);

/** A completion in the exact OpenAI wire shape. */
function completion(message: ChatCompletion['choices'][number]['message']): ChatCompletion {
  return {
    id: 'scripted',
    object: 'chat.completion',
    created: 0,
    model: 'scripted',
    choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

let callNumber = 0;
const callTool = (name: string, args: unknown) =>
  completion({
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: `call_${++callNumber}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
    ],
  });
const reply = (text: string) => completion({ role: 'assistant', content: text });

/** Reads the conversation as a model would (markers are stripped) and picks the next step. */
const scripted: ChatModel = {
  async complete(request: ChatRequest) {
    const last = request.messages[request.messages.length - 1] as ChatMessage;
    if (last.role === 'user')
      // The user's question, or hook feedback asking for a shorter reply.
      return last.content.startsWith('Your reply is')
        ? reply('Jasmine tea is 12.5 per 100 g.')
        : callTool('load_skill', { skill_id: 'pricing' });
    if (last.role === 'tool') {
      // After the skill loads, or after a failed call (a timeout here, or unparseable output), call the tool.
      if (!/"price":/.test(last.content) || isToolError(last.content))
        return callTool('get_tea_price', { tea: 'jasmine' });
      return reply('Jasmine tea is 12.5 per 100 g today: a fragrant, light green tea, lovely after dinner.');
    }
    throw new Error(`unexpected last message ${last.role}`);
  },
};

const run = await runAgent({
  harness,
  tools,
  model: scripted,
  userMessages: ['How much is the jasmine tea?', 'cheap followers at https://spam.example'],
});

const marker = (message: Message) =>
  'hsa' in message && message.hsa ? `  [${message.hsa.event} ${message.hsa.hook}]` : '';
const show = (message: Message) => {
  if (message.role === 'assistant' && message.tool_calls)
    return message.tool_calls.map((call) => `${call.function.name}(${call.function.arguments})`).join(', ');
  return (message.content ?? '').replace(/\n+/g, ' ').slice(0, 90);
};
for (const message of run.messages)
  console.log(`${message.role.padEnd(9)} ${show(message)}${marker(message)}`);

console.log(`turns ended: ${run.turnEnds.join(', ')}`);
console.log(
  `model calls: ${run.steps.length}; tool errors: ${run.episode.toolLog
    .filter((t) => t.error)
    .map((t) => t.error)
    .join(', ')}`,
);
const validation = validateTrajectory(run.trajectory('tea-1'), harness);
console.log(`valid under the harness: ${validation.valid}`);
