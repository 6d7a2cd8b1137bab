// Shared field readers for the tool importers (MCP, OpenAI): each reads one field of an untrusted tool
// definition, pushes an issue with the field's JSON path when it is wrong, and returns the usable value.
// Internal: not re-exported from the importers' index.

import { formatPath, type Issue, type JsonPath, quote } from '../issues.js';
import { compileJsonSchema } from '../json-schema-validator.js';
import { fromZodIssues } from '../parse-harness.js';
import { type Tool, ToolSchema } from '../schema.js';
import { pythonTypeNames, unknownTypeIssues } from './schema-type-names.js';

/** The tool-name rule of the harness (OpenAI function names), repeated here to name it in messages. */
const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * True for a plain JSON object (not null, not an array).
 *
 * @example
 * isPlainObject([]) // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Names the JSON type of a value for messages: `null`, `array`, `object`, `string`, …
 *
 * @example
 * jsonTypeOf(null) // 'null'
 */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Reads a required tool name; returns undefined (and adds an issue) when it is missing or breaks the rule.
 *
 * @example
 * readToolName('fs.read', ['tools', 0, 'name'], issues) // undefined, and an `invalid_tool_name` issue
 */
export function readToolName(value: unknown, path: JsonPath, issues: Issue[]): string | undefined {
  if (value === undefined) {
    issues.push({ code: 'missing_name', path, message: 'the tool has no name' });
    return undefined;
  }
  if (typeof value !== 'string') {
    issues.push({
      code: 'invalid_type',
      path,
      message: `the tool name must be a string, not ${jsonTypeOf(value)}`,
    });
    return undefined;
  }
  if (!toolNamePattern.test(value)) {
    issues.push({
      code: 'invalid_tool_name',
      path,
      message: `tool name ${quote(value)} must be 1-64 characters of A-Z, a-z, 0-9, _ and - (OpenAI function names)`,
    });
    return undefined;
  }
  return value;
}

/**
 * Reads an optional text field: a non-empty string, or undefined when absent, null or empty.
 *
 * @example
 * readOptionalText('', ['description'], issues, 'description') // undefined, no issue
 */
export function readOptionalText(
  value: unknown,
  path: JsonPath,
  issues: Issue[],
  what: string,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    issues.push({
      code: 'invalid_type',
      path,
      message: `${what} must be a string, not ${jsonTypeOf(value)}`,
    });
    return undefined;
  }
  return value.length > 0 ? value : undefined;
}

/**
 * Reads a JSON Schema of tool parameters: an object schema of type "object" that compiles. Returns a deep
 * copy so the imported tool never shares objects with its source.
 *
 * @example
 * readParameters({ type: 'object', properties: {} }, ['inputSchema'], issues) // a copy of the schema
 */
export function readParameters(
  value: unknown,
  path: JsonPath,
  issues: Issue[],
): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) {
    issues.push({
      code: 'invalid_type',
      path,
      message: `parameters must be a JSON Schema object, not ${jsonTypeOf(value)}`,
    });
    return undefined;
  }
  if (value.type !== 'object') {
    const given =
      value.type === undefined ? ', and they have no type' : `, not ${JSON.stringify(value.type)}`;
    const python =
      typeof value.type === 'string' && pythonTypeNames.get(value.type) === 'object'
        ? ` ("${value.type}" is Python's name for "object")`
        : '';
    issues.push({
      code: 'invalid_tool_parameters',
      path: [...path, 'type'],
      message: `tool parameters must be a JSON Schema of type "object"${given}${python}`,
    });
    return undefined;
  }
  // A type JSON Schema does not know gets its own path and name, not the metaschema's wording.
  const unknownTypes = unknownTypeIssues(value, path);
  if (unknownTypes.length > 0) {
    issues.push(...unknownTypes);
    return undefined;
  }
  const compiled = compileJsonSchema(value);
  if (!compiled.ok) {
    issues.push({ code: 'invalid_json_schema', path, message: `not a valid JSON Schema: ${compiled.error}` });
    return undefined;
  }
  return structuredClone(value);
}

/**
 * Adds a `duplicate_id` issue for every tool whose name was already used, pointing at its name field.
 *
 * @example
 * checkDuplicateNames([{ name: 'a', path: [0, 'name'] }, { name: 'a', path: [1, 'name'] }], issues)
 */
export function checkDuplicateNames(
  named: ReadonlyArray<{ name: string; path: JsonPath }>,
  issues: Issue[],
): void {
  const first = new Map<string, JsonPath>();
  for (const { name, path } of named) {
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, path);
    else
      issues.push({
        code: 'duplicate_id',
        path,
        message: `tool name "${name}" is already used at ${formatPath(earlier)}`,
      });
  }
}

/**
 * Checks tools handed to an exporter against the harness rules; returns the issues, paths from the list.
 *
 * @example
 * checkToolsForExport([{ name: 'a b', description: 'x', parameters: {} }]) // [{ code: 'invalid_format', path: [0, 'name'], … }]
 */
export function checkToolsForExport(tools: unknown): Issue[] {
  if (!Array.isArray(tools))
    return [
      { code: 'invalid_type', path: [], message: `expected an array of tools, not ${jsonTypeOf(tools)}` },
    ];
  const issues: Issue[] = [];
  tools.forEach((tool, index) => {
    const parsed = ToolSchema.safeParse(tool);
    if (!parsed.success) issues.push(...fromZodIssues(parsed.error.issues, [index]));
  });
  checkDuplicateNames(
    tools.flatMap((tool: Partial<Tool>, index) =>
      typeof tool?.name === 'string' ? [{ name: tool.name, path: [index, 'name'] }] : [],
    ),
    issues,
  );
  return issues;
}
