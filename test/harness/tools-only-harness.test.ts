// A harness of tools alone (no skills: the usual MCP or OpenAI tool list) offers no skill loader, so logs
// whose `tools` are what `hsa export openai-tools` writes validate under it (issue 40, item 7: they failed
// with tools_mismatch, the validator expecting a `load_skill` with an empty enum first).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offeredTools } from '../../src/harness/offered-tools.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

describe('a harness without skills', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsa-tools-only-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('offers its tools alone, and logs carrying the exported tools validate', async () => {
    const harnessFile = join(dir, 'harness.yaml');
    const imported = await hsa([
      'import',
      'openai-tools',
      join(projectRoot, 'fixtures/importers/openai-tools.json'),
      '-o',
      harnessFile,
    ]);
    expect(imported.status, imported.stderr).toBe(0);
    const harness = await loadHarnessFile(harnessFile);
    expect(harness.skills.items).toEqual([]);
    expect(offeredTools(harness).map((tool) => tool.name)).toEqual(
      harness.tools.items.map((tool) => tool.name),
    );

    const toolsFile = join(dir, 'tools.json');
    expect((await hsa(['export', 'openai-tools', harnessFile, '-o', toolsFile])).status).toBe(0);
    const tools = JSON.parse(await readFile(toolsFile, 'utf8'));
    const trajectory = {
      id: 'log-1',
      tools,
      messages: [
        { role: 'system', content: renderSystemPrompt(harness, {}) },
        { role: 'user', content: 'Hello?' },
        { role: 'assistant', content: 'Hello! How can I help?' },
      ],
    };
    const trajectories = join(dir, 'logs.jsonl');
    await writeFile(trajectories, `${JSON.stringify(trajectory)}\n`);
    const validated = await hsa(['validate', harnessFile, '--trajectories', trajectories]);
    expect(validated.stdout + validated.stderr).not.toMatch(/tools_mismatch/);
    expect(validated.status, validated.stdout + validated.stderr).toBe(0);
  }, 120_000);
});
