// Random harnesses from other domains, each with a valid trajectory, so that operator laws run far from the
// live-stream fixture: other names, other schemas, phrases and non-ASCII ids, nested and array parameters.

import { createRandom, type Random } from '../augment/random.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { toChatCompletionTools } from '../harness/offered-tools.js';
import { parseHarness } from '../harness/parse-harness.js';
import { renderSystemPrompt } from '../harness/render-prompt.js';
import type { Harness, HarnessInput, Hook } from '../harness/schema.js';
import type { Message, Trajectory } from '../trajectory/schema.js';
import { rederiveTrajectory } from '../trajectory/validate-trajectory.js';

/** A harness and trajectories that validate under it: the unit the operator laws run on. */
export interface LawCase {
  name: string;
  harness: Harness;
  trajectories: Trajectory[];
  /** The custom hook checks the harness names, if any. */
  hookChecks?: HookCheckRegistry | undefined;
}

const domains = [
  {
    name: 'bookstore',
    customer: 'Ines',
    nouns: ['book', 'author', 'order', 'gift_card'],
    words: ['edition', 'shelf', 'delivery'],
  },
  {
    name: 'clinic',
    customer: 'Kofi',
    nouns: ['appointment', 'doctor', 'prescription', 'invoice'],
    words: ['slot', 'ward', 'referral'],
  },
  {
    name: 'smart-home',
    customer: 'Yuki',
    nouns: ['device', 'scene', 'room', 'schedule'],
    words: ['thermostat', 'light', 'sensor'],
  },
  {
    name: 'bank',
    customer: 'Lena',
    nouns: ['account', 'card', 'transfer', 'statement'],
    words: ['limit', 'balance', 'fee'],
  },
] as const;

const verbs = ['get', 'search', 'update', 'list', 'check'];
const oddSkillIds = ['refund policy', '退款规则', 'FAQ-2', 'étiquette'];

function parameterSchema(
  rng: Random,
  noun: string,
  depth: number,
): { schema: Record<string, unknown>; sample: unknown } {
  const kind = rng.pick(
    depth > 0 ? ['string', 'integer', 'enum'] : ['string', 'integer', 'enum', 'object', 'array'],
  );
  switch (kind) {
    case 'integer':
      return {
        schema: { type: 'integer', minimum: 1, description: `Number of the ${noun}` },
        sample: rng.int(1, 99),
      };
    case 'enum': {
      const values = rng.sample(['low', 'normal', 'high', 'urgent', 'none'], 3);
      return {
        schema: { type: 'string', enum: values, description: 'Priority level' },
        sample: rng.pick(values),
      };
    }
    case 'object': {
      const inner = parameterSchema(rng.fork('inner'), noun, depth + 1);
      return {
        schema: {
          type: 'object',
          properties: { value: inner.schema, note: { type: 'string' } },
          required: ['value'],
          additionalProperties: false,
        },
        sample: { value: inner.sample },
      };
    }
    case 'array':
      return {
        schema: {
          type: 'array',
          items: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
        },
        sample: [{ ref: `${noun}-1` }],
      };
    default:
      return { schema: { type: 'string', description: `Name or code of the ${noun}` }, sample: `${noun} A` };
  }
}

/**
 * Builds a random harness with one or two valid trajectories from a seed. Deterministic for a seed.
 *
 * @example
 * const lawCase = randomLawCase(7); lawCase.harness.tools.items.length
 */
export function randomLawCase(seed: number): LawCase {
  const rng = createRandom(`law-case/${seed}`);
  const domain = rng.pick(domains);
  const toolCount = rng.int(1, 4);
  const tools: HarnessInput['tools']['items'] = [];
  const samples = new Map<string, Record<string, unknown>>();
  for (const [index, noun] of domain.nouns.slice(0, toolCount).entries()) {
    const name = `${rng.fork(`verb${index}`).pick(verbs)}_${noun}`;
    if (tools.some((tool) => tool.name === name)) continue;
    const properties: Record<string, unknown> = {};
    const sample: Record<string, unknown> = {};
    const required: string[] = [];
    const names = rng
      .fork(`params${index}`)
      .sample([`${noun}_id`, 'query', 'level', 'details', 'items'], rng.int(1, 3));
    for (const [position, parameter] of names.entries()) {
      const built = parameterSchema(rng.fork(`p${index}.${position}`), noun, 0);
      properties[parameter] = built.schema;
      sample[parameter] = built.sample;
      if (position === 0 || rng.chance(0.5)) required.push(parameter);
    }
    tools.push({
      name,
      description: `${name.split('_')[0] === 'get' ? 'Get' : 'Work with'} the ${noun.replaceAll('_', ' ')} records of the ${domain.name}. Pass \`${names[0]}\`.`,
      parameters: { type: 'object', properties, required, additionalProperties: false },
    });
    samples.set(name, sample);
  }

  const skillCount = rng.int(1, 5);
  const skills: HarnessInput['skills']['items'] = [];
  for (let index = 0; index < skillCount; index++) {
    const odd = rng.fork(`odd${index}`).chance(0.2);
    const id = odd
      ? rng.fork(`oddid${index}`).pick(oddSkillIds)
      : `${domain.words[index % domain.words.length]}_${rng.pick(['help', 'rules', 'qa', 'flow'])}`;
    if (skills.some((skill) => skill.id === id)) continue;
    const tool = tools[index % tools.length];
    skills.push({
      id,
      kind: index === 0 ? 'reply' : rng.pick(['reply', 'strategy']),
      description: `How to handle ${domain.words[index % domain.words.length]} questions`,
      body: [
        `- Call \`${tool?.name}\` before you answer.`,
        '- Keep the reply short and polite.',
        `- Never promise what the ${domain.name} cannot do.`,
        ...(index > 0 ? [`- Pair with \`${skills[0]?.id}\` when needed.`] : []),
      ].join('\n'),
    });
  }

  const hooks: Hook[] = [];
  const maybe = (p: number, hook: Hook) => {
    if (rng.fork(`hook-${hook.id}`).chance(p)) hooks.push(hook);
  };
  maybe(0.5, {
    id: 'no_spam',
    stage: 'input',
    enabled: true,
    check: { type: 'banned_terms', terms: ['xyzzy'], caseSensitive: false },
    onFail: { action: 'block', message: 'Blocked.' },
  });
  maybe(0.7, {
    id: 'valid_args',
    stage: 'pre_tool',
    enabled: true,
    check: { type: 'tool_arguments' },
    onFail: {
      action: 'retry',
      maxRetries: 1,
      feedback: 'Fix {{tool}}: {{join errors "; "}}',
      exhausted: 'block',
    },
  });
  maybe(0.7, {
    id: 'reply_skill',
    stage: 'pre_reply',
    enabled: true,
    check: { type: 'skill_loaded', kind: 'reply', scope: 'turn' },
    onFail: { action: 'retry', maxRetries: 1, feedback: 'Load a {{kind}} skill first.', exhausted: 'block' },
  });
  maybe(0.6, {
    id: 'length',
    stage: 'pre_reply',
    enabled: true,
    check: { type: 'max_length', max: 160 },
    onFail: {
      action: 'retry',
      maxRetries: 2,
      feedback: 'Shorter please ({{length}}/{{max}}).',
      exhausted: 'block',
    },
  });
  const promises = rng.fork('promises').chance(0.8);
  if (promises)
    hooks.push({
      id: 'no_promises',
      stage: 'pre_reply',
      enabled: true,
      check: { type: 'banned_terms', terms: ['guarantee', 'forever'], caseSensitive: false },
      onFail: {
        action: 'retry',
        maxRetries: 2,
        feedback: 'Remove {{join found ", "}}.',
        exhausted: 'fallback',
        fallback: 'Let me check with a colleague.',
      },
    });
  maybe(0.5, {
    id: 'grounded',
    stage: 'post_reply',
    enabled: true,
    check: { type: 'numbers_grounded', sources: ['tool_results', 'user'], ignore: [] },
    onFail: {
      action: 'retry',
      maxRetries: 1,
      feedback: 'Unknown numbers: {{join numbers ", "}}',
      exhausted: 'block',
    },
  });

  // A policy hook scoped to one tool: the reply skill must be loaded in the turn before that tool runs.
  const scopedTool = tools[rng.fork('scoped-tool').int(0, tools.length - 1)];
  const replySkillId = skills[0]?.id;
  const scoped =
    scopedTool !== undefined && replySkillId !== undefined && rng.fork('hook-scoped').chance(0.5);
  if (scoped)
    hooks.push({
      id: 'skill_before_tool',
      stage: 'pre_tool',
      enabled: true,
      tools: [scopedTool.name],
      check: { type: 'skill_loaded', skill: replySkillId, kind: 'reply', scope: 'turn' },
      onFail: {
        action: 'retry',
        maxRetries: 1,
        feedback: 'Load {{skill}} before this tool.',
        exhausted: 'block',
      },
    });
  maybe(0.4, {
    id: 'short_results',
    stage: 'post_tool',
    enabled: true,
    tools: [tools[0]?.name ?? 'load_skill'],
    check: { type: 'max_length', max: 2000 },
    onFail: { action: 'block', message: 'The result is too long to show.' },
  });

  const sections = rng.shuffle([
    {
      id: 'catalog',
      title: 'Skills',
      template: `{{skillList}}\nCall \`{{loader.tool}}\` with a skill id before you use it.`,
      pinned: false,
    },
    rng.chance(0.5)
      ? { id: 'tool_guide', title: 'Tools', template: '{{toolList}}', pinned: false }
      : {
          id: 'tool_guide',
          title: 'Tools',
          template: '{{#each tools}}- {{name}}: {{description}}\n{{/each}}',
          pinned: false,
        },
    {
      id: 'customer',
      title: 'Customer',
      template: 'You are talking to {{context.customer}}.\n\nBe brief.',
      pinned: false,
    },
  ]);
  const input: HarnessInput = {
    id: `${domain.name}-${seed}`,
    skills: { version: '1', items: skills },
    hooks: { version: '1', items: hooks },
    prompt: {
      version: '1',
      headingStyle: rng.pick(['markdown', 'xml', 'numbered', 'bracketed']),
      sections: [
        { id: 'role', title: 'Role', template: `You are the assistant of a ${domain.name}.`, pinned: true },
        ...sections,
      ],
    },
    tools: { version: '1', items: tools },
  };
  const harness = parseHarness(input);
  const context = { customer: domain.customer };

  const trajectories: Trajectory[] = [];
  const turns = rng.int(1, 2);
  for (let variant = 0; variant < 2; variant++) {
    const turnRng = rng.fork(`trajectory${variant}`);
    const messages: Message[] = [{ role: 'system', content: '' }];
    let call = 0;
    for (let turn = 0; turn < (variant === 0 ? 1 : turns); turn++) {
      const replySkill =
        harness.skills.items.find((skill) => skill.kind === 'reply') ?? harness.skills.items[0];
      const tool = turnRng.pick(harness.tools.items);
      const value = turnRng.int(10, 900);
      messages.push({
        role: 'user',
        content: `Hello, question ${turn + 1} about my ${domain.nouns[0].replaceAll('_', ' ')}?`,
      });
      // Sometimes the scoped tool is tried before the skill is loaded: its hook rejects it with feedback.
      if (scoped && turnRng.fork(`early${turn}`).chance(0.5)) {
        const earlyId = `call_${variant}_${call++}`;
        const earlyArgs = JSON.stringify(samples.get(scopedTool.name) ?? {});
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: earlyId, type: 'function', function: { name: scopedTool.name, arguments: earlyArgs } },
          ],
          hsa: { event: 'hook_rejected', hook: 'skill_before_tool' },
        });
        messages.push({
          role: 'tool',
          tool_call_id: earlyId,
          content: '',
          hsa: { event: 'hook_feedback', hook: 'skill_before_tool' },
        });
      }
      const loadId = `call_${variant}_${call++}`;
      const loaderArgs = JSON.stringify({ [harness.skills.loader.argument]: replySkill?.id });
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: loadId,
            type: 'function',
            function: { name: harness.skills.loader.tool, arguments: loaderArgs },
          },
        ],
      });
      messages.push({ role: 'tool', tool_call_id: loadId, content: '' });
      const toolId = `call_${variant}_${call++}`;
      // Raw argument text with spaces, as models often write it, so relabels must keep bytes exactly.
      const args = JSON.stringify(samples.get(tool.name) ?? {}, null, turnRng.chance(0.5) ? 1 : 0);
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: toolId, type: 'function', function: { name: tool.name, arguments: args } }],
      });
      messages.push({
        role: 'tool',
        tool_call_id: toolId,
        content: JSON.stringify({ status: 'ok', value, tool: tool.name }),
      });
      const reply = `Your ${domain.nouns[0].replaceAll('_', ' ')} shows ${value}. Anything else?`;
      if (promises && turnRng.chance(0.5)) {
        messages.push({
          role: 'assistant',
          content: `${reply} We guarantee it.`,
          hsa: { event: 'hook_rejected', hook: 'no_promises' },
        });
        messages.push({ role: 'user', content: '', hsa: { event: 'hook_feedback', hook: 'no_promises' } });
      }
      messages.push({ role: 'assistant', content: reply });
    }
    const draft: Trajectory = {
      id: `${input.id}-t${variant}`,
      harness: { id: harness.id },
      context,
      tools: toChatCompletionTools(harness),
      messages,
    };
    draft.messages[0] = { role: 'system', content: renderSystemPrompt(harness, context) };
    const { trajectory, issues } = rederiveTrajectory(draft, harness);
    if (issues.length > 0) {
      // The builder is wrong, not the operator under test: say so loudly.
      throw new Error(
        `randomLawCase(${seed}) built an invalid trajectory: ${issues.map((issue) => issue.message).join('; ')}`,
      );
    }
    trajectories.push(trajectory);
  }
  return { name: `random:${input.id}`, harness, trajectories };
}
