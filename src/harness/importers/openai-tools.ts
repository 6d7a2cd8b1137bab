// OpenAI function tools ⇄ harness tools. Reads a Chat Completions `tools` array (or the flat function tools
// of the Responses API, or the legacy `functions` form of BFCL and Gorilla) into harness tools, and writes
// harness tools back in the Chat Completions form.
import { findForbiddenKeys } from '../documents.js';
import { HarnessAugmentError, type Issue, type JsonPath, type SafeResult } from '../issues.js';
import { compileJsonSchema } from '../json-schema-validator.js';
import type { Tool } from '../schema.js';
import { readPythonTypeNames, type TypeNameRead, unknownTypeIssues } from './schema-type-names.js';
import {
  checkDuplicateNames,
  checkToolsForExport,
  isPlainObject,
  jsonTypeOf,
  readOptionalText,
  readParameters,
  readToolName,
} from './tool-fields.js';

/** A function tool in the Chat Completions form (`ChatCompletionFunctionTool` of the OpenAI SDK). */
export interface OpenAIChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
    strict?: boolean | null;
  };
}

/** Parameters given to a tool declared without any: an object with no properties. */
const noParameters = () => ({ type: 'object', properties: {} });

/**
 * OpenAI function tools as read: the tools, and what the reading did that the tools alone do not say.
 * The CLI turns `typeNames` and `responses` into notes.
 */
export interface OpenAIToolsRead {
  tools: Tool[];
  /** The Python type names (BFCL, Gorilla) read as JSON Schema types, in `parameters` and `response`. */
  typeNames: TypeNameRead[];
  /** BFCL's `response` (the result's schema): the tools whose one was kept as `outputSchema`, and the others. */
  responses: {
    kept: string[];
    leftOut: Array<{ tool: string; path: JsonPath; reason: string }>;
  };
}

/** Whether a plain object that is no request body reads as one tool (a one-line JSON Lines file). */
const isOneTool = (value: Record<string, unknown>) => 'name' in value || 'function' in value;

/**
 * Reads OpenAI function tools into harness tools, with what the reading did, or returns every issue found.
 * Accepts the `tools` array of a Chat Completions or Responses request, both forms mixed, a request body
 * holding such an array (or a legacy `functions` one), one tool alone, and the legacy `functions` form (`{ name, description,
 * parameters }`, no `type`) that BFCL and Gorilla use, with Python type names (`dict`, `float`, `any`, …)
 * read as JSON Schema types and BFCL's `response` kept as `outputSchema` where it is a valid JSON Schema.
 *
 * @example
 * const result = safeReadOpenAITools([{ name: 'get_rate', parameters: { type: 'dict', properties: { rate: { type: 'float' } } } }]);
 * if (result.success) result.data.typeNames // [{ name: 'dict', as: 'object', count: 1 }, { name: 'float', as: 'number', count: 1 }]
 */
export function safeReadOpenAITools(value: unknown): SafeResult<OpenAIToolsRead> {
  const forbidden = findForbiddenKeys(value);
  if (forbidden.length > 0) return { success: false, issues: forbidden };
  let entries: Array<{ entry: unknown; path: JsonPath }>;
  // A request body: `tools`, or the legacy `functions` of the Chat Completions API.
  const key = isPlainObject(value) ? ['tools', 'functions'].find((name) => name in value) : undefined;
  if (isPlainObject(value) && key !== undefined) {
    const list = value[key];
    if (!Array.isArray(list)) return notAList(list, [key]);
    entries = list.map((entry: unknown, index) => ({ entry, path: [key, index] }));
  } else if (Array.isArray(value)) {
    entries = value.map((entry: unknown, index) => ({ entry, path: [index] }));
  } else if (isPlainObject(value) && isOneTool(value)) {
    entries = [{ entry: value, path: [] }];
  } else return notAList(value, []);

  const issues: Issue[] = [];
  const tools: Tool[] = [];
  const named: { name: string; path: JsonPath }[] = [];
  const typeNames = new Map<string, TypeNameRead>();
  const responses: OpenAIToolsRead['responses'] = { kept: [], leftOut: [] };
  const count = (read: TypeNameRead[]) => {
    for (const name of read) {
      const seen = typeNames.get(name.name);
      typeNames.set(name.name, { ...name, count: (seen?.count ?? 0) + name.count });
    }
  };
  for (const { entry, path } of entries) {
    const at = (...rest: JsonPath) => [...path, ...rest];
    if (!isPlainObject(entry)) {
      issues.push({
        code: 'invalid_type',
        path: at(),
        message: `a tool must be an object, not ${jsonTypeOf(entry)}`,
      });
      continue;
    }
    // No `type`: the legacy `functions` form, a function tool too.
    if (entry.type !== 'function' && entry.type !== undefined) {
      issues.push({
        code: 'unsupported_tool_type',
        path: at('type'),
        message: `only "function" tools can be imported, not ${JSON.stringify(entry.type)}`,
      });
      continue;
    }
    // Chat Completions nests the definition under `function`; the Responses API puts it on the tool itself.
    const nested = 'function' in entry;
    if (nested && !isPlainObject(entry.function)) {
      issues.push({
        code: 'invalid_type',
        path: at('function'),
        message: `function must be an object, not ${jsonTypeOf(entry.function)}`,
      });
      continue;
    }
    const definition = (nested ? entry.function : entry) as Record<string, unknown>;
    const field = (key: string) => (nested ? at('function', key) : at(key));
    const name = readToolName(definition.name, field('name'), issues);
    const description = readOptionalText(definition.description, field('description'), issues, 'description');
    const given = isPlainObject(definition.parameters)
      ? readPythonTypeNames(definition.parameters)
      : undefined;
    const parameters =
      definition.parameters === undefined || definition.parameters === null
        ? noParameters()
        : readParameters(given?.schema ?? definition.parameters, field('parameters'), issues);
    const strict = definition.strict;
    if (strict !== undefined && strict !== null && typeof strict !== 'boolean')
      issues.push({
        code: 'invalid_type',
        path: field('strict'),
        message: `strict must be a boolean, not ${jsonTypeOf(strict)}`,
      });
    if (name === undefined || parameters === undefined) continue;
    if (given) count(given.read);
    const outputSchema = readResponse(definition.response, name, field('response'), responses, count);
    named.push({ name, path: field('name') });
    tools.push({
      name,
      description: description ?? name,
      parameters,
      ...(outputSchema === undefined ? {} : { outputSchema }),
      ...(typeof strict === 'boolean' ? { strict } : {}),
    });
  }
  checkDuplicateNames(named, issues);
  if (issues.length > 0) return { success: false, issues };
  return { success: true, data: { tools, typeNames: [...typeNames.values()], responses } };
}

/**
 * BFCL's `response`, the schema of the tool's result, as the tool's `outputSchema` (Python type names read),
 * or undefined with the reason it is left out: the harness keeps only a valid JSON Schema there.
 */
function readResponse(
  response: unknown,
  tool: string,
  path: JsonPath,
  responses: OpenAIToolsRead['responses'],
  count: (read: TypeNameRead[]) => void,
): Record<string, unknown> | undefined {
  if (response === undefined) return undefined;
  const leftOut = (reason: string) => {
    responses.leftOut.push({ tool, path, reason });
    return undefined;
  };
  if (!isPlainObject(response)) return leftOut(`not a JSON Schema object but ${jsonTypeOf(response)}`);
  const given = readPythonTypeNames(response);
  const unknown = unknownTypeIssues(given.schema, path)[0];
  if (unknown) return leftOut(unknown.message);
  const compiled = compileJsonSchema(given.schema);
  if (!compiled.ok) return leftOut(`not a valid JSON Schema: ${compiled.error}`);
  count(given.read);
  responses.kept.push(tool);
  return given.schema;
}

function notAList(value: unknown, path: JsonPath): SafeResult<never> {
  return {
    success: false,
    issues: [
      {
        code: 'invalid_type',
        path,
        message: `expected an array of tools (or one tool object), not ${jsonTypeOf(value)}`,
      },
    ],
  };
}

/**
 * Reads OpenAI function tools into harness tools, or returns every issue found: `safeReadOpenAITools`
 * without what the reading did.
 *
 * @example
 * const result = safeImportOpenAITools([{ type: 'function', function: { name: 'get_time' } }]);
 * if (result.success) result.data[0].parameters // { type: 'object', properties: {} }
 */
export function safeImportOpenAITools(value: unknown): SafeResult<Tool[]> {
  const read = safeReadOpenAITools(value);
  return read.success ? { success: true, data: read.data.tools } : read;
}

/**
 * Reads OpenAI function tools (Chat Completions, Responses or legacy `functions` form) into harness tools,
 * with what the reading did; throws a HarnessAugmentError listing every issue.
 *
 * @example
 * const { tools, typeNames } = readOpenAITools(bfclFunctions);
 */
export function readOpenAITools(value: unknown): OpenAIToolsRead {
  const outcome = safeReadOpenAITools(value);
  if (outcome.success) return outcome.data;
  throw new HarnessAugmentError(`invalid OpenAI tools: ${outcome.issues.length} issue(s)`, {
    issues: outcome.issues,
  });
}

/**
 * Reads OpenAI function tools (Chat Completions, Responses or legacy `functions` form) into harness tools;
 * throws a HarnessAugmentError listing every issue. A missing description becomes the name, missing
 * parameters an empty object schema; `strict` is kept (and written back by `exportOpenAITools`). Python type
 * names are read as JSON Schema types and BFCL's `response` becomes `outputSchema`: `readOpenAITools` says
 * where.
 *
 * @example
 * const tools = importOpenAITools(request.tools);
 */
export function importOpenAITools(value: unknown): Tool[] {
  return readOpenAITools(value).tools;
}

/**
 * Writes harness tools as a Chat Completions `tools` array. Throws a HarnessAugmentError when a tool breaks
 * the harness rules.
 *
 * @example
 * exportOpenAITools([{ name: 'get_time', description: 'Current time', parameters: { type: 'object' } }])
 * // [{ type: 'function', function: { name: 'get_time', description: 'Current time', parameters: { type: 'object' } } }]
 */
export function exportOpenAITools(tools: Tool[]): OpenAIChatTool[] {
  const issues = checkToolsForExport(tools);
  if (issues.length > 0) {
    throw new HarnessAugmentError(`cannot export tools to OpenAI: ${issues.length} issue(s)`, { issues });
  }
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: structuredClone(tool.parameters),
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    },
  }));
}
