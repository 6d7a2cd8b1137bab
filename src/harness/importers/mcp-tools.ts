// MCP tools ⇄ harness tools. Reads the result of an MCP `tools/list` request (bare, or inside its JSON-RPC
// response) into harness tools, and writes harness tools back as a `tools/list` result.
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

/** Behaviour hints of an MCP tool (MCP `ToolAnnotations`); all are hints, none is enforced. */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as an MCP server lists it (MCP `Tool`, protocol revisions 2025-06-18 and 2025-11-25). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  outputSchema?: { [keyword: string]: unknown };
  annotations?: McpToolAnnotations;
  /** How the tool runs, e.g. `{ taskSupport: 'forbidden' }` (protocol 2025-11-25). */
  execution?: Record<string, unknown>;
  icons?: Array<Record<string, unknown>>;
  _meta?: Record<string, unknown>;
  /** Fields of later protocol revisions are kept as they are. */
  [field: string]: unknown;
}

/** The MCP Tool fields a harness tool models; every other field is kept in `tool.mcp.fields`. */
const modelled: Record<string, (tool: Tool) => unknown> = {
  name: (tool) => tool.name,
  title: (tool) => tool.title,
  description: (tool) => tool.description,
  inputSchema: (tool) => structuredClone(tool.parameters),
  outputSchema: (tool) => (tool.outputSchema === undefined ? undefined : structuredClone(tool.outputSchema)),
  annotations: (tool) => (tool.annotations === undefined ? undefined : structuredClone(tool.annotations)),
};

/**
 * What a listed tool holds beyond the harness fields: its key order, the fields no harness field models,
 * and the modelled ones the harness could not keep as given (an empty or null title or description).
 */
function keptMcpFields(entry: Record<string, unknown>, tool: Omit<Tool, 'mcp'>): NonNullable<Tool['mcp']> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    const model = Object.hasOwn(modelled, key) ? modelled[key] : undefined;
    if (!model) fields[key] = structuredClone(value);
    else if (JSON.stringify(model(tool as Tool)) !== JSON.stringify(value))
      fields[key] = structuredClone(value);
  }
  return { order: Object.keys(entry), fields };
}

/** The result of an MCP `tools/list` request; `nextCursor` is set when more pages follow. */
export interface McpToolsListResult {
  tools: McpTool[];
  nextCursor?: string;
}

/**
 * Reads an MCP `tools/list` result, bare or inside its JSON-RPC response, into harness tools, or returns
 * every issue found (paths point into the given value).
 *
 * @example
 * const result = safeImportMcpTools({ tools: [{ name: 'fetch', inputSchema: { type: 'object' } }] });
 * if (!result.success) console.log(result.issues);
 */
export function safeImportMcpTools(result: unknown): SafeResult<Tool[]> {
  const forbidden = findForbiddenKeys(result);
  if (forbidden.length > 0) return { success: false, issues: forbidden };
  if (!isPlainObject(result)) {
    return failure({
      code: 'invalid_type',
      path: [],
      message: `expected a tools/list result object, not ${jsonTypeOf(result)}`,
    });
  }
  let listResult: Record<string, unknown> = result;
  let prefix: JsonPath = [];
  if ('jsonrpc' in result || 'result' in result || 'error' in result) {
    if (isPlainObject(result.error)) {
      const message = typeof result.error.message === 'string' ? result.error.message : 'no message';
      return failure({
        code: 'jsonrpc_error',
        path: ['error'],
        message: `the server answered with an error: ${message}`,
      });
    }
    if (!isPlainObject(result.result)) {
      return failure({
        code: 'invalid_type',
        path: ['result'],
        message: `a JSON-RPC response must hold a result object, not ${jsonTypeOf(result.result)}`,
      });
    }
    listResult = result.result;
    prefix = ['result'];
  }
  const list = listResult.tools;
  if (!Array.isArray(list)) {
    return failure({
      code: 'invalid_type',
      path: [...prefix, 'tools'],
      message: `tools must be an array, not ${list === undefined ? 'missing' : jsonTypeOf(list)}`,
    });
  }

  const issues: Issue[] = [];
  const tools: Tool[] = [];
  const named: { name: string; path: JsonPath }[] = [];
  list.forEach((entry: unknown, index) => {
    const at = (...rest: JsonPath) => [...prefix, 'tools', index, ...rest];
    if (!isPlainObject(entry)) {
      issues.push({
        code: 'invalid_type',
        path: at(),
        message: `a tool must be an object, not ${jsonTypeOf(entry)}`,
      });
      return;
    }
    const name = readToolName(entry.name, at('name'), issues);
    const description = readOptionalText(entry.description, at('description'), issues, 'description');
    const title = readOptionalText(entry.title, at('title'), issues, 'title');
    const annotationTitle = isPlainObject(entry.annotations)
      ? readOptionalText(entry.annotations.title, at('annotations', 'title'), issues, 'annotations.title')
      : undefined;
    let parameters: Record<string, unknown> | undefined;
    if (entry.inputSchema === undefined) {
      issues.push({
        code: 'missing_input_schema',
        path: at('inputSchema'),
        message: 'the tool has no inputSchema',
      });
    } else {
      parameters = readParameters(entry.inputSchema, at('inputSchema'), issues);
    }
    let outputSchema: Record<string, unknown> | undefined;
    if (entry.outputSchema !== undefined) {
      if (isPlainObject(entry.outputSchema)) outputSchema = structuredClone(entry.outputSchema);
      else
        issues.push({
          code: 'invalid_type',
          path: at('outputSchema'),
          message: `outputSchema must be a JSON Schema object, not ${jsonTypeOf(entry.outputSchema)}`,
        });
    }
    if (entry.annotations !== undefined && !isPlainObject(entry.annotations))
      issues.push({
        code: 'invalid_type',
        path: at('annotations'),
        message: `annotations must be an object, not ${jsonTypeOf(entry.annotations)}`,
      });
    if (name === undefined || parameters === undefined) return;
    named.push({ name, path: at('name') });
    // MCP's display-name order is title, annotations.title, name; a harness tool needs a description.
    const tool: Tool = {
      name,
      description: description ?? title ?? annotationTitle ?? name,
      parameters,
      ...(title === undefined ? {} : { title }),
      ...(isPlainObject(entry.annotations) ? { annotations: structuredClone(entry.annotations) } : {}),
      ...(outputSchema === undefined ? {} : { outputSchema }),
    };
    // Only what the plain export would not write back: a tool exported from a harness imports as it was.
    const kept = keptMcpFields(entry, tool);
    const plain = Object.keys(exportMcpTool(tool));
    const asPlain = Object.keys(kept.fields).length === 0 && kept.order.join() === plain.join();
    tools.push(asPlain ? tool : { ...tool, mcp: kept });
  });
  checkDuplicateNames(named, issues);
  return issues.length > 0 ? { success: false, issues } : { success: true, data: tools };
}

/**
 * Reads an MCP `tools/list` result, bare or inside its JSON-RPC response, into harness tools; throws a
 * HarnessAugmentError listing every issue. `title`, `annotations` and `outputSchema` are harness fields;
 * every other field of the MCP Tool (`execution`, `icons`, `_meta`, fields of later revisions) and the
 * key order are kept in `tool.mcp`, so that `exportMcpTools` writes each tool back byte for byte.
 *
 * @example
 * const tools = importMcpTools(JSON.parse(await readFile('tools-list.json', 'utf8')));
 */
export function importMcpTools(result: unknown): Tool[] {
  const outcome = safeImportMcpTools(result);
  if (outcome.success) return outcome.data;
  throw new HarnessAugmentError(`invalid MCP tools/list result: ${outcome.issues.length} issue(s)`, {
    issues: outcome.issues,
  });
}

/**
 * Writes harness tools as an MCP `tools/list` result; `parameters` become `inputSchema`, and `title`,
 * `outputSchema` and `annotations` are written when the tool has them. Throws a
 * HarnessAugmentError when a tool breaks the harness rules.
 *
 * @example
 * exportMcpTools([{ name: 'fetch', description: 'Fetch a URL', parameters: { type: 'object' } }])
 * // { tools: [{ name: 'fetch', description: 'Fetch a URL', inputSchema: { type: 'object' } }] }
 */
export function exportMcpTools(tools: Tool[]): { tools: McpTool[] } {
  const issues = checkToolsForExport(tools);
  if (issues.length > 0)
    throw new HarnessAugmentError(`cannot export tools to MCP: ${issues.length} issue(s)`, { issues });
  return { tools: tools.map((tool) => (tool.mcp ? asListed(tool, tool.mcp) : exportMcpTool(tool))) };
}

/** A harness tool as an MCP Tool, in the protocol's field order. */
function exportMcpTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema: structuredClone(tool.parameters) as McpTool['inputSchema'],
    ...(tool.outputSchema === undefined ? {} : { outputSchema: structuredClone(tool.outputSchema) }),
    ...(tool.annotations === undefined
      ? {}
      : { annotations: structuredClone(tool.annotations) as McpToolAnnotations }),
  };
}

/**
 * A tool imported from MCP, written back in its listed key order: the harness's current value of each
 * modelled field (a renamed tool has its new name), the kept value of every other, then modelled fields
 * it gained since (a description it had none of is left out, as it was the importer's stand-in).
 */
function asListed(tool: Tool, kept: NonNullable<Tool['mcp']>): McpTool {
  const out: Record<string, unknown> = {};
  for (const key of kept.order) {
    const model = Object.hasOwn(modelled, key) ? modelled[key] : undefined;
    const value = Object.hasOwn(kept.fields, key) ? structuredClone(kept.fields[key]) : model?.(tool);
    if (value !== undefined) out[key] = value;
  }
  for (const [key, model] of Object.entries(modelled)) {
    if (kept.order.includes(key) || key === 'description') continue;
    const value = model(tool);
    if (value !== undefined) out[key] = value;
  }
  return out as McpTool;
}

function failure(issue: Issue): SafeResult<Tool[]> {
  return { success: false, issues: [issue] };
}
