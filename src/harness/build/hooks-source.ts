// A hooks source of `hsa harness build`: the hooks a YAML or JSON file gives, as the harness format writes
// them (a list, or `{ items: [...] }`). Whether they fit the harness (their tools, skills, templates) is
// checked on the built harness.
import { locateIssues, readDocument } from '../documents.js';
import { type Hook, HookSchema } from '../schema.js';
import { type ItemsSource, itemsOfList } from './source-list.js';

/**
 * Reads the hooks of a hooks file, or every issue found (with the file and line).
 *
 * @example
 * const read = await readHooksSource('hooks.yaml'); // { items: [{ id: 'reply_skill_loaded', … }], issues: [] }
 */
export async function readHooksSource(file: string): Promise<ItemsSource<Hook>> {
  const document = await readDocument(file);
  const { items: hooks, issues } = itemsOfList(document.value, 'items', HookSchema, 'hook');
  return { items: issues.length > 0 ? [] : hooks, issues: locateIssues(issues, document) };
}
