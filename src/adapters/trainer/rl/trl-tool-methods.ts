// Whether a tool can be offered through TRL's `environment_factory`: TRL turns each public method of the
// environment into a tool with transformers' `get_json_schema`, which reads the method's name, its
// parameters (Python identifiers, each with a type hint) and a Google-style docstring. A tool whose
// parameter is not a Python identifier (`link-id`, `from`), whose name TRL reserves (`reset`,
// `get_reward`, a leading `_`), or whose text would end the docstring's sections early (`Args:`,
// `Returns:`, `Raises:`) cannot be written that way; such a harness state is left out with the reason.
import type { OfferedTool } from '../../../trajectory/schema.js';

// Python's hard keywords (keyword.kwlist): not valid parameter names.
const pythonKeywords = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
const identifier = /^[\p{L}_][\p{L}\p{N}_]*$/u;
// transformers' docstring parser stops a description at the first of these (description_re, args_re).
const sectionMarker = /\b(?:Args|Returns|Raises):/;

function properties(tool: OfferedTool): Record<string, { description?: unknown }> {
  const parameters = tool.function.parameters as { properties?: Record<string, { description?: unknown }> };
  return parameters?.properties ?? {};
}

/**
 * Why a tool cannot be a TRL environment method, or undefined when it can.
 *
 * @example
 * trlToolProblem({ type: 'function', function: { name: 'reset' } }) // 'tool "reset": TRL reserves the name ...'
 */
export function trlToolProblem(tool: OfferedTool): string | undefined {
  const name = tool.function.name;
  if (name === 'reset' || name === 'get_reward' || name.startsWith('_'))
    return `tool "${name}": TRL reserves the name (reset, get_reward and names starting with "_" are not tools)`;
  if (sectionMarker.test(tool.function.description ?? ''))
    return `tool "${name}": its description contains a docstring section marker (Args:/Returns:/Raises:) that transformers' get_json_schema would cut at`;
  for (const [parameter, schema] of Object.entries(properties(tool))) {
    if (!identifier.test(parameter) || pythonKeywords.has(parameter) || parameter === 'self')
      return `tool "${name}": parameter "${parameter}" is not a Python parameter name, so TRL cannot offer it as a method argument`;
    if (typeof schema?.description === 'string' && sectionMarker.test(schema.description))
      return `tool "${name}": the description of "${parameter}" contains a docstring section marker (Returns:/Raises:)`;
  }
  return undefined;
}
