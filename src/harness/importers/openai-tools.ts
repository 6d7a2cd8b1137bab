// OpenAI function tools ⇄ harness tools. Reads a Chat Completions `tools` array (or the flat function tools
// of the Responses API) into harness tools, and writes harness tools back in the Chat Completions form.
import { findForbiddenKeys } from '../documents.js';
import { HarnessAugmentError, type Issue, type JsonPath, type SafeResult } from '../issues.js';
import type { Tool } from '../schema.js';
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
 * Reads OpenAI function tools into harness tools, or returns every issue found. Accepts the `tools` array
 * of a Chat Completions or Responses request, both forms mixed, or a request body holding such an array.
 *
 * @example
 * const result = safeImportOpenAITools([{ type: 'function', function: { name: 'get_time' } }]);
 * if (result.success) result.data[0].parameters // { type: 'object', properties: {} }
 */
export function safeImportOpenAITools(value: unknown): SafeResult<Tool[]> {
  const forbidden = findForbiddenKeys(value);
  if (forbidden.length > 0) return { success: false, issues: forbidden };
  let list: unknown = value;
  let prefix: JsonPath = [];
  if (isPlainObject(value) && 'tools' in value) {
    list = value.tools;
    prefix = ['tools'];
  }
  if (!Array.isArray(list)) {
    return {
      success: false,
      issues: [
        {
          code: 'invalid_type',
          path: prefix,
          message: `expected an array of tools, not ${jsonTypeOf(list)}`,
        },
      ],
    };
  }

  const issues: Issue[] = [];
  const tools: Tool[] = [];
  const named: { name: string; path: JsonPath }[] = [];
  list.forEach((entry: unknown, index) => {
    const at = (...rest: JsonPath) => [...prefix, index, ...rest];
    if (!isPlainObject(entry)) {
      issues.push({
        code: 'invalid_type',
        path: at(),
        message: `a tool must be an object, not ${jsonTypeOf(entry)}`,
      });
      return;
    }
    if (entry.type !== 'function') {
      issues.push({
        code: 'unsupported_tool_type',
        path: at('type'),
        message:
          entry.type === undefined
            ? 'the tool has no type; only "function" tools can be imported'
            : `only "function" tools can be imported, not ${JSON.stringify(entry.type)}`,
      });
      return;
    }
    // Chat Completions nests the definition under `function`; the Responses API puts it on the tool itself.
    const nested = 'function' in entry;
    if (nested && !isPlainObject(entry.function)) {
      issues.push({
        code: 'invalid_type',
        path: at('function'),
        message: `function must be an object, not ${jsonTypeOf(entry.function)}`,
      });
      return;
    }
    const definition = (nested ? entry.function : entry) as Record<string, unknown>;
    const field = (key: string) => (nested ? at('function', key) : at(key));
    const name = readToolName(definition.name, field('name'), issues);
    const description = readOptionalText(definition.description, field('description'), issues, 'description');
    const parameters =
      definition.parameters === undefined || definition.parameters === null
        ? noParameters()
        : readParameters(definition.parameters, field('parameters'), issues);
    const strict = definition.strict;
    if (strict !== undefined && strict !== null && typeof strict !== 'boolean')
      issues.push({
        code: 'invalid_type',
        path: field('strict'),
        message: `strict must be a boolean, not ${jsonTypeOf(strict)}`,
      });
    if (name === undefined || parameters === undefined) return;
    named.push({ name, path: field('name') });
    tools.push({
      name,
      description: description ?? name,
      parameters,
      ...(typeof strict === 'boolean' ? { strict } : {}),
    });
  });
  checkDuplicateNames(named, issues);
  return issues.length > 0 ? { success: false, issues } : { success: true, data: tools };
}

/**
 * Reads OpenAI function tools (Chat Completions or Responses form) into harness tools; throws a
 * HarnessAugmentError listing every issue. A missing description becomes the name, missing parameters an
 * empty object schema; `strict` is kept (and written back by `exportOpenAITools`).
 *
 * @example
 * const tools = importOpenAITools(request.tools);
 */
export function importOpenAITools(value: unknown): Tool[] {
  const outcome = safeImportOpenAITools(value);
  if (outcome.success) return outcome.data;
  throw new HarnessAugmentError(`invalid OpenAI tools: ${outcome.issues.length} issue(s)`, {
    issues: outcome.issues,
  });
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
