// The public retail material the demo is shown on: the harness is what the importers make of tau-bench's
// tools and policy (nothing edited in between), every logged conversation validates once imported, and the
// conversion script and the README name the same source commit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSkillsFolder } from '../../src/harness/importers/agent-skills.js';
import { importOpenAITools } from '../../src/harness/importers/openai-tools.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { projectRoot } from '../support/run-cli.js';

const material = join(projectRoot, 'test/demo/fixtures/tau-bench-retail');
const read = (file: string) => readFileSync(join(material, file), 'utf8');

describe('the tau-bench retail material', () => {
  it('is a harness made by the importers from the tools and the policy, unedited', async () => {
    const harness = await loadHarnessFile(join(material, 'harness.yaml'));
    expect(harness.tools.items).toEqual(importOpenAITools(JSON.parse(read('tools.json'))));
    expect(harness.tools.items).toHaveLength(16);
    expect(harness.skills.items).toEqual(await loadSkillsFolder(join(material, 'skills')));
    const policy = harness.prompt.sections.find((section) => section.id === 'policy');
    expect(policy?.template).toBe(read('policy.md').trim());
  });

  it('holds at least 200 conversations, one per tau-bench task, each with a request and a confirmation', () => {
    const logs = read('logs.jsonl')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; messages: Array<{ role: string }> });
    expect(logs.length).toBeGreaterThanOrEqual(200);
    expect(new Set(logs.map((log) => log.id)).size).toBe(logs.length);
    for (const log of logs) expect(log.messages.filter((message) => message.role === 'user')).toHaveLength(2);
  });

  it('names its source commit in the conversion script and the README', () => {
    const commit = /COMMIT = "([0-9a-f]{40})"/.exec(
      readFileSync(join(projectRoot, 'scripts/tau-bench-retail.py'), 'utf8'),
    )?.[1];
    expect(commit).toBeDefined();
    expect(read('README.md')).toContain(commit as string);
  });
});
