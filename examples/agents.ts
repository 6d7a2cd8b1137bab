// Two toy agents for the live-stream harness that answer "how much is link N?" with one tool call.
// The robust one reads the harness: it finds the price tool by its description and the link parameter by
// its schema. The brittle one has memorised the tool's name, as a model fine-tuned on one harness does.

import type { Harness, Message, Tool } from 'harness-augment';
import type { Agent, AgentInput } from 'harness-augment/testing';

/** The link number a user asks about ("link 3", "#3", "3号链接"), else the link on screen. */
function linkOf(input: AgentInput): number {
  const user = [...input.messages].reverse().find((message) => message.role === 'user');
  const text = user?.content ?? '';
  const match = /(?:link|#)\s*(\d+)|(\d+)\s*号/i.exec(text);
  const onScreen = (input.context.room as { current_link_id?: number } | undefined)?.current_link_id ?? 1;
  return match ? Number(match[1] ?? match[2]) : onScreen;
}

/** Finds the path of the integer parameter whose description speaks of a link, nested objects included. */
function linkPath(schema: Record<string, unknown>, path: string[] = []): string[] | undefined {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'integer' && /link/i.test(String(property.description ?? '')))
      return [...path, name];
    if (property.type === 'object') {
      const inner = linkPath(property, [...path, name]);
      if (inner) return inner;
    }
  }
  return undefined;
}

function callPrice(tool: Pick<Tool, 'name' | 'parameters'>, link: number): Message[] {
  const path = linkPath(tool.parameters) ?? ['link_id'];
  const args: Record<string, unknown> = {};
  let cursor = args;
  for (const [index, key] of path.entries()) {
    if (index === path.length - 1) cursor[key] = link;
    else {
      const inner: Record<string, unknown> = {};
      cursor[key] = inner;
      cursor = inner;
    }
  }
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_price',
          type: 'function',
          function: { name: tool.name, arguments: JSON.stringify(args) },
        },
      ],
    },
  ];
}

/** Reads the harness: the tool whose description mentions prices and coupons. */
export const robustAgent: Agent = (harness: Harness, input: AgentInput) => {
  const tool = harness.tools.items.find(
    (candidate) => /price/i.test(candidate.description) && /coupon/i.test(candidate.description),
  );
  if (!tool) return [{ role: 'assistant', content: 'Let me check that for you.' }];
  return callPrice(tool, linkOf(input));
};

/** Keys on the name it memorised; reads the schema like the robust agent, so only a rename can break it. */
export const brittleAgent: Agent = (harness: Harness, input: AgentInput) => {
  const memorised = 'get_price_and_coupons';
  const tool = harness.tools.items.find((candidate) => candidate.name === memorised) ?? {
    name: memorised,
    parameters: { properties: { link_id: { type: 'integer', description: 'link' } } },
  };
  return callPrice(tool, linkOf(input));
};
