// A harness tool as veRL's tool config takes it. veRL validates `tool_schema` with pydantic
// (verl/tools/schemas.py: OpenAIFunctionToolSchema): `function.description` a string,
// `parameters.required` present, and each property only `type` (one string), `description` and `enum`
// (strings); other keys are dropped when the agent loop dumps the schema into the prompt
// (tool_agent_loop.py: `tool.tool_schema.model_dump(exclude_unset=True, exclude_none=True)`). So every
// detail veRL would drop (a union type, integer enums, nested properties, bounds) is written into the
// property's description as JSON, and the model still sees it.
import type { OfferedTool } from '../../../trajectory/schema.js';

type JsonSchema = Record<string, unknown>;

const kept = new Set(['type', 'description', 'enum']);

function singleType(schema: JsonSchema): string {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const concrete = type.filter((entry): entry is string => typeof entry === 'string' && entry !== 'null');
    if (concrete.length === 1) return concrete[0]!;
  }
  return schema.properties ? 'object' : 'string';
}

function veRLProperty(schema: JsonSchema): JsonSchema {
  const type = singleType(schema);
  const enumValues = Array.isArray(schema.enum) ? schema.enum : undefined;
  const stringEnum = enumValues?.every((value) => typeof value === 'string')
    ? (enumValues as string[])
    : undefined;
  const lost = Object.fromEntries(
    Object.entries(schema).filter(
      ([key, value]) =>
        !kept.has(key) || (key === 'type' && value !== type) || (key === 'enum' && stringEnum === undefined),
    ),
  );
  const description = typeof schema.description === 'string' ? schema.description : '';
  const details = Object.keys(lost).length > 0 ? `JSON Schema: ${JSON.stringify(lost)}` : '';
  const text = [description, details].filter(Boolean).join(' ');
  return {
    type,
    ...(text ? { description: text } : {}),
    ...(stringEnum ? { enum: stringEnum } : {}),
  };
}

/**
 * The tool in the shape veRL's OpenAIFunctionToolSchema accepts, nothing of its schema lost.
 *
 * @example
 * toVerlToolSchema({ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } })
 * // { type: 'function', function: { name: 'f', description: '', parameters: { type: 'object', properties: {}, required: [] } } }
 */
export function toVerlToolSchema(tool: OfferedTool): OfferedTool {
  const parameters = (tool.function.parameters ?? {}) as JsonSchema;
  const properties = (parameters.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(parameters.required) ? (parameters.required as string[]) : [];
  const lost = Object.fromEntries(
    Object.entries(parameters).filter(([key]) => !['type', 'properties', 'required'].includes(key)),
  );
  const description = [
    tool.function.description ?? '',
    Object.keys(lost).length > 0 ? `Parameters JSON Schema: ${JSON.stringify(lost)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    type: 'function',
    function: {
      name: tool.function.name,
      description,
      parameters: {
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(properties).map(([name, schema]) => [name, veRLProperty(schema)]),
        ),
        required,
      },
    },
  };
}
