// perturbations/tools/nest-arguments.ts — moves a tool's arguments under one wrapper object (`{"query": {...}}`); the original schema, names and values stay inside it.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  harnessTextLocations,
  isRecord,
  namePattern,
  parseRawJson,
  type RelabelStep,
  type Tool,
  takenNames,
  textIndex,
  trajectoryCalls,
} from '../../src/kit/index.js';

/** Wrapper names in order of preference. */
export const wrapperNames = [
  'query',
  'params',
  'input',
  'request',
  'args',
  'payload',
  'arguments',
  'options',
  'data',
  'call',
] as const;

/** Keywords that would resolve differently once the schema moves below the root. */
const rootAnchored = ['$id', '$anchor', '$dynamicAnchor', '$recursiveAnchor'];

/** No anchor, and every `$ref` points into `$defs`/`definitions` (which stay at the root). */
function refsStayValid(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(refsStayValid);
  if (!isRecord(value)) return true;
  return Object.entries(value).every(([key, child]) => {
    if ((key === '$ref' || key === '$dynamicRef' || key === '$recursiveRef') && typeof child === 'string')
      return child.startsWith('#/$defs/') || child.startsWith('#/definitions/');
    if (rootAnchored.includes(key)) return false;
    return refsStayValid(child);
  });
}

/** A tool that takes arguments: its schema has at least one property (not `{"type":"object","properties":{}}`). */
function takesArguments(parameters: Tool['parameters']): boolean {
  const properties = (parameters as { properties?: unknown }).properties;
  return isRecord(properties) && Object.keys(properties).length > 0;
}

/** Whether a schema lists a required property at its root. */
const hasRequired = (parameters: Tool['parameters']) => {
  const { required } = parameters as { required?: unknown };
  return Array.isArray(required) && required.length > 0;
};

/**
 * The nested schema: the original one (without `$schema`, `$defs` and `definitions`, which stay at the
 * root so that `#/$defs/…` references still resolve) becomes the only, required property.
 */
function nestSchema(parameters: Tool['parameters'], wrapper: string): Tool['parameters'] {
  const { $schema, $defs, definitions, ...inner } = structuredClone(parameters);
  return {
    ...($schema !== undefined ? { $schema } : {}),
    type: 'object',
    properties: { [wrapper]: inner },
    required: [wrapper],
    additionalProperties: false,
    ...($defs !== undefined ? { $defs } : {}),
    ...(definitions !== undefined ? { definitions } : {}),
  };
}

/**
 * Moves the arguments of a share (= severity, at least one) of the tools into a single wrapper object:
 * `{ "link_id": 7 }` becomes `{ "query": { "link_id": 7 } }`, with a `nest_arguments` relabel step per
 * tool whose inverse restores the raw argument text byte for byte. The wrapper is the `wrapper` param or
 * the first free name of `query`, `params`, `input`, `request`, `args`, … that is no identifier of the
 * harness and no word of its texts. Mentions of parameters in texts stay as they are and stay valid: a parameter keeps its own name
 * (the symbol table finds `` `link_id` `` and `tool.link_id` as before), only its path gains the wrapper.
 * A tool is left alone when its schema holds `$id`-style anchors or `$ref`s outside `$defs`/`definitions`
 * (they would resolve differently), or when one of its calls in the trajectory has arguments that are not
 * JSON or carry surrounding white space (the inverse could not restore them exactly), and when it takes no
 * arguments (no `properties`, or none: MCP's `list_allowed_directories`), which a required empty wrapper
 * would turn into a tool that must be called with `{"query":{}}`.
 *
 * @example
 * const applied = await applyOperator(nestArguments, harness, { rng: 'seed', severity: 0.3 });
 * // get_baggage_policy now takes { "query": { "fare_class": "standard" } }
 */
export const nestArguments = defineOperator({
  id: 'tools/nest-arguments',
  // 2: no default wrapper that the harness's texts use as a word ("item options", "mobile data").
  // 3: a tool without properties keeps its schema (no required empty wrapper on `list_allowed_directories`).
  // 4: no `options` wrapper around a required argument (it reads as settings one may leave out).
  version: 4,
  dimension: 'tools',
  mode: 'exact',
  description: 'Moves tool arguments under one wrapper object; names, values and constraints stay inside it.',
  params: z.object({
    wrapper: z
      .string()
      .regex(namePattern)
      .optional()
      .describe(
        'The wrapper property; by default the first free one of query, params, input, request, args, …',
      ),
  }),
  apply(harness, { rng, severity, params, trajectory }) {
    const taken = takenNames(harness);
    const options = params.wrapper !== undefined ? [params.wrapper] : wrapperNames;
    // A default wrapper that the harness's texts use as a word would read as that thing: in a retail
    // policy's "product item options", `options` would wrap an exchange's arguments.
    const words = textIndex(harnessTextLocations(harness).map((location) => location.text));
    const inProse = (name: string) =>
      params.wrapper === undefined &&
      (words.hasWord(name) || words.hasWord(`${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`));
    const free = options.filter((name) => !taken.has(name) && !inProse(name));
    if (free.length === 0)
      return {
        skip: `the wrapper name(s) ${options.join(', ')} are identifiers or words of the harness`,
      };
    // `options` reads as settings one may leave out: it never wraps a required argument (BFCL's
    // `delete_apdex_configuration` took `{"options": {"id": …}}`, the configuration to delete).
    const fittingWrappers = (tool: Tool) =>
      free.filter(
        (name) => params.wrapper !== undefined || name !== 'options' || !hasRequired(tool.parameters),
      );
    const calls = trajectoryCalls(trajectory);
    const candidates = harness.tools.items.filter(
      (tool) =>
        takesArguments(tool.parameters) &&
        fittingWrappers(tool).length > 0 &&
        refsStayValid(tool.parameters) &&
        calls.every(
          (call) =>
            call.name !== tool.name ||
            (call.arguments === call.arguments.trim() && parseRawJson(call.arguments) !== undefined),
        ),
    );
    if (candidates.length === 0) return { skip: 'no tool can have its arguments nested exactly' };
    const count = affectedCount(severity, candidates.length);
    const chosen = new Set(
      rng
        .fork('choose')
        .sample(candidates, count)
        .map((tool) => tool.name),
    );
    const steps: RelabelStep[] = [];
    const items = harness.tools.items.map((tool) => {
      if (!chosen.has(tool.name)) return tool;
      // The preferred wrapper most of the time, another free one otherwise.
      const local = rng.fork(`wrapper-${tool.name}`);
      const fitting = fittingWrappers(tool);
      const wrapper = local.chance(0.5) ? (fitting[0] as string) : local.pick(fitting);
      steps.push({ type: 'nest_arguments', tool: tool.name, under: wrapper });
      return { ...tool, parameters: nestSchema(tool.parameters, wrapper) };
    });
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: { steps } };
  },
});
