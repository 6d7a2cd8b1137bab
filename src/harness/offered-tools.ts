// The tools a model is offered: the skill loader first (when there are skills to load), then the registry in order.
import { objectMemo } from './object-memo.js';
import type { Harness, Tool } from './schema.js';

/**
 * Builds the skill-loading tool from the harness's loader settings; its argument is an enum of skill ids,
 * so constrained decoding and schema validation both know which skills exist.
 *
 * @example
 * skillLoaderTool(harness).name // 'load_skill'
 */
export function skillLoaderTool(harness: Pick<Harness, 'skills'>): Tool {
  const { tool, argument, description } = harness.skills.loader;
  return {
    name: tool,
    description,
    parameters: {
      type: 'object',
      properties: {
        [argument]: {
          type: 'string',
          description: 'Id of the skill to load.',
          enum: harness.skills.items.map((skill) => skill.id),
        },
      },
      required: [argument],
      additionalProperties: false,
    },
  };
}

/**
 * Every tool the model may call under this harness, in offering order: the skill loader first when the
 * harness has skills (a harness of tools alone, the usual MCP or OpenAI tool list, offers no loader, whose
 * enum of skill ids would be empty), then the registry.
 *
 * @example
 * offeredTools(harness).map((tool) => tool.name) // ['load_skill', 'get_product_info_by_link_id', …]
 */
export function offeredTools(harness: Pick<Harness, 'skills' | 'tools'>): Tool[] {
  if (harness.skills.items.length === 0) return [...harness.tools.items];
  return [loaderOfSkills(harness.skills), ...harness.tools.items];
}

/**
 * The offered tool of that name, or undefined: a map per (tools, skills) part objects, so that a hook
 * checking a call's arguments finds its tool without listing the offered tools again, and variants that
 * changed other parts share it.
 *
 * @example
 * offeredTool(harness, 'load_skill')?.parameters
 */
export function offeredTool(harness: Harness, name: string): Tool | undefined {
  return byNameFor(harness.tools)(harness.skills).get(name);
}
const byNameFor = objectMemo((tools: Harness['tools']) =>
  objectMemo((skills: Harness['skills']) => {
    const byName = new Map<string, Tool>();
    // The first of a name, as a search of the list finds it.
    for (const tool of offeredTools({ tools, skills }))
      if (!byName.has(tool.name)) byName.set(tool.name, tool);
    return byName;
  }),
);

/**
 * The skill loader, one object per skills part (what it is made of): harnesses that share their skills (a
 * variant whose hooks alone differ) offer the same loader, as they offer the same registry tools, so its
 * schema is compiled and checked once.
 */
const loaderOfSkills = objectMemo((skills: Harness['skills']) => skillLoaderTool({ skills }));

/**
 * The offered tools in the Chat Completions `tools` shape.
 *
 * @example
 * await client.chat.completions.create({ model, messages, tools: toChatCompletionTools(harness) });
 */
export function toChatCompletionTools(harness: Harness) {
  // `strict` as the tool carries it: the same shape `exportOpenAITools` writes, so logs whose `tools` came
  // from `hsa export openai-tools` match what the harness offers.
  return offeredTools(harness).map((tool) => ({
    type: 'function' as const,
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    },
  }));
}

/**
 * `toChatCompletionTools(harness)`, one array per harness object (harnesses are immutable): what a walk
 * writes as a trajectory's offered tools, so that every trajectory moved into one variant holds the same
 * array, and a writer that asks whether a trajectory's tools are the harness's knows it without writing
 * them out. Shared: never to be mutated.
 *
 * @example
 * sharedChatCompletionTools(harness) === sharedChatCompletionTools(harness) // true
 */
export function sharedChatCompletionTools(harness: Harness): ReturnType<typeof toChatCompletionTools> {
  return sharedTools(harness);
}
const sharedTools = objectMemo(toChatCompletionTools);
