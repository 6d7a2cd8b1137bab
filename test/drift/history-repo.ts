// Builds a real git repository in a temp folder with a harness history: the helpdesk harness, then one
// commit per edit (a skill rename, a parameter rename, a reordered prompt, a changed retry budget, an
// added tool). Dates and identity are fixed so that commit hashes are the same on every run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';

export const helpdeskFile = join(import.meta.dirname, '../../fixtures/helpdesk/harness.yaml');

/** The edits of the built history, in commit order, with the harness each one makes of the previous. */
export const historyEdits: Array<{ subject: string; edit: (harness: Harness) => Harness }> = [
  {
    subject: 'rename skill escalation to handover',
    edit: (harness) => renameSymbols(harness, { skills: { escalation: 'handover' } }).harness,
  },
  {
    subject: 'rename reset_password.delivery to delivery_channel',
    edit: (harness) =>
      renameSymbols(harness, {
        parameters: [{ tool: 'reset_password', path: ['delivery'], to: 'delivery_channel' }],
      }).harness,
  },
  {
    subject: 'prompt: policies before tools',
    edit: (harness) => {
      const sections = [...harness.prompt.sections];
      const tools = sections.findIndex((section) => section.id === 'tool_guide');
      const policies = sections.findIndex((section) => section.id === 'policies');
      [sections[tools], sections[policies]] = [sections[policies] as never, sections[tools] as never];
      return { ...harness, prompt: { ...harness.prompt, sections } };
    },
  },
  {
    subject: 'reply_length: retry up to 3 times',
    edit: (harness) => ({
      ...harness,
      hooks: {
        ...harness.hooks,
        items: harness.hooks.items.map((hook) =>
          hook.id === 'reply_length' && hook.onFail.action === 'retry'
            ? { ...hook, onFail: { ...hook.onFail, maxRetries: 3 } }
            : hook,
        ),
      },
    }),
  },
  {
    subject: 'add get_asset_inventory',
    edit: (harness) => ({
      ...harness,
      tools: {
        ...harness.tools,
        items: [
          ...harness.tools.items,
          {
            name: 'get_asset_inventory',
            description: 'Lists the laptops and phones assigned to an employee.',
            parameters: {
              type: 'object',
              properties: { user_id: { type: 'string', description: 'The account id from lookup_user.' } },
              required: ['user_id'],
              additionalProperties: false,
            },
          },
        ],
      },
    }),
  },
];

function git(directory: string, args: string[]): string {
  return execFileSync('git', ['-C', directory, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Drift Test',
      GIT_AUTHOR_EMAIL: 'drift@example.org',
      GIT_COMMITTER_NAME: 'Drift Test',
      GIT_COMMITTER_EMAIL: 'drift@example.org',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: directory,
    },
  });
}

/** Commits `text` as `path` with a fixed date (the n-th day of December 2026). */
export function commitFile(repo: string, path: string, text: string, subject: string, day: number): void {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
  git(repo, ['add', path]);
  const date = `2026-12-${String(day).padStart(2, '0')}T09:00:00Z`;
  execFileSync('git', ['-C', repo, 'commit', '-q', '-m', subject], {
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Drift Test',
      GIT_AUTHOR_EMAIL: 'drift@example.org',
      GIT_COMMITTER_NAME: 'Drift Test',
      GIT_COMMITTER_EMAIL: 'drift@example.org',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: repo,
    },
  });
}

/** A new git repository (in a temp folder) holding the helpdesk harness and the edits of `historyEdits`. */
export function buildHistoryRepo(path = 'agent/harness.yaml'): { repo: string; versions: Harness[] } {
  const repo = mkdtempSync(join(tmpdir(), 'hsa-drift-'));
  git(repo, ['init', '-q', '-b', 'main']);
  let harness = parseHarness(YAML.parse(readFileSync(helpdeskFile, 'utf8')));
  const versions = [harness];
  commitFile(repo, path, readFileSync(helpdeskFile, 'utf8'), 'helpdesk harness', 1);
  historyEdits.forEach(({ subject, edit }, index) => {
    harness = edit(harness);
    versions.push(harness);
    commitFile(repo, path, YAML.stringify(harness, { lineWidth: 0 }), subject, index + 2);
  });
  return { repo, versions };
}
