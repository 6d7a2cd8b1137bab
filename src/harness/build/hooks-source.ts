// A hooks source of `hsa harness build`: the hooks a YAML or JSON file gives, as the harness format writes
// them (a list, or `{ items: [...] }`). Whether they fit the harness (their tools, skills, templates) is
// checked on the built harness.
import { locateIssues, readDocument } from '../documents.js';
import type { Issue } from '../issues.js';
import { fromZodIssues } from '../parse-harness.js';
import { type Hook, HookSchema } from '../schema.js';
import { type ItemsSource, listInDocument, repeatedKeys } from './source-list.js';

/**
 * Reads the hooks of a hooks file, or every issue found (with the file and line).
 *
 * @example
 * const read = await readHooksSource('hooks.yaml'); // { items: [{ id: 'reply_skill_loaded', … }], issues: [] }
 */
export async function readHooksSource(file: string): Promise<ItemsSource<Hook>> {
  const document = await readDocument(file);
  const list = listInDocument(document.value, 'items');
  if ('issue' in list) return { items: [], issues: locateIssues([list.issue], document) };
  const issues: Issue[] = [];
  const hooks: Hook[] = [];
  list.items.forEach((value, index) => {
    const parsed = HookSchema.safeParse(value);
    if (parsed.success) hooks.push(parsed.data);
    else issues.push(...fromZodIssues(parsed.error.issues, [...list.path, index]));
  });
  if (issues.length === 0)
    issues.push(
      ...repeatedKeys(
        hooks.map((hook) => hook.id),
        (index) => [...list.path, index, 'id'],
        'hook',
      ),
    );
  return { items: issues.length > 0 ? [] : hooks, issues: locateIssues(issues, document) };
}
