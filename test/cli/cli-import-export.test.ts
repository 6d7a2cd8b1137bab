import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/harness/documents.js';
import { loadSkillsFolder } from '../../src/harness/importers/index.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { hsa } from '../support/run-hsa.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-import-'));
});

describe('hsa import / export', () => {
  it('imports a real MCP tools/list response into a harness that validates, and exports it back', async () => {
    const harnessFile = join(folder, 'fs.yaml');
    const imported = await hsa([
      'import',
      'mcp',
      'fixtures/importers/mcp-tools-list.json',
      '-o',
      harnessFile,
      '--id',
      'filesystem',
    ]);
    expect(imported.status).toBe(0);
    expect((await hsa(['validate', harnessFile])).status).toBe(0);

    const exportedFile = join(folder, 'fs.mcp.json');
    expect((await hsa(['export', 'mcp', harnessFile, '-o', exportedFile])).status).toBe(0);
    const original = (await readDocument('fixtures/importers/mcp-tools-list.json')).value as {
      result: { tools: Array<{ name: string; description?: string; inputSchema: unknown }> };
    };
    const exported = JSON.parse(readFileSync(exportedFile, 'utf8')) as typeof original.result;
    // Name, description and input schema come back as they were; MCP-only fields (title, annotations) are not kept.
    expect(
      exported.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    ).toEqual(
      original.result.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    );
  });

  it('imports a folder of SKILL.md files into a harness that validates, and exports the same skills', async () => {
    const harnessFile = join(folder, 'skills.json');
    expect((await hsa(['import', 'skills', 'fixtures/importers/skills', '-o', harnessFile])).status).toBe(0);
    expect((await hsa(['validate', harnessFile])).status).toBe(0);
    const harness = await loadHarnessFile(harnessFile);
    expect(harness.skills.items).toEqual(await loadSkillsFolder('fixtures/importers/skills'));

    const out = join(folder, 'skills-out');
    const exported = await hsa(['export', 'skills', harnessFile, '-o', out]);
    expect(exported.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(readdirSync('fixtures/importers/skills').sort());
    expect(await loadSkillsFolder(out)).toEqual(harness.skills.items);
  });

  it('imports a folder of OpenHands rule files, noting the descriptions it made and the files it left aside', async () => {
    const harnessFile = join(folder, 'rules.yaml');
    const imported = await hsa(['import', 'skills', 'fixtures/importers/rules-public', '-o', harnessFile]);
    expect(imported.status, imported.stderr).toBe(0);
    const notes = imported.stderr.split('\n').filter(Boolean);
    expect(notes).toHaveLength(3);
    expect(notes[0]).toMatch(/^note: fixtures\/importers\/rules-public: 5 rule files have no description; /);
    expect(notes[1]).toMatch(
      /^note: fixtures\/importers\/rules-public: left aside 1 Markdown file .*README\.md$/,
    );
    expect(notes[2]).toMatch(
      /^note: fixtures\/importers\/rules-public: left aside 1 rule file .*default-tools\.md$/,
    );
    const harness = await loadHarnessFile(harnessFile);
    expect(harness.skills.items).toEqual(await loadSkillsFolder('fixtures/importers/rules-public'));
    expect(harness.skills.items.map((skill) => skill.id)).toEqual([
      'add_agent',
      'code-review',
      'github',
      'npm',
      'SSH Microagent',
    ]);
  });

  it('imports an OpenAI tools array and exports it back equivalently', async () => {
    const harnessFile = join(folder, 'openai.yaml');
    expect(
      (await hsa(['import', 'openai-tools', 'fixtures/importers/openai-tools.json', '-o', harnessFile]))
        .status,
    ).toBe(0);
    expect((await hsa(['validate', harnessFile])).status).toBe(0);
    const exported = await hsa(['export', 'openai-tools', harnessFile]);
    const original = JSON.parse(readFileSync('fixtures/importers/openai-tools.json', 'utf8')) as Array<{
      function: { name: string; parameters?: unknown };
    }>;
    const back = JSON.parse(exported.stdout) as typeof original;
    expect(back.map((tool) => tool.function.name)).toEqual(original.map((tool) => tool.function.name));
  });

  it('imports BFCL function docs: JSON Lines of bare functions, Python type names, response schemas', async () => {
    const harnessFile = join(folder, 'bfcl.yaml');
    const bfcl = 'fixtures/importers/bfcl-travel-booking.json';
    const run = await hsa(['import', 'openai-tools', bfcl, '-o', harnessFile]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([
      `note: ${bfcl}: read Python type names as JSON Schema types: dict → object (9 places), float → number (3 places)`,
      `note: ${bfcl}: kept the response schema of 4 tools as their outputSchema (written by \`hsa export mcp\`; an OpenAI tool has no field for it)`,
    ]);
    expect((await hsa(['validate', harnessFile])).stdout).toContain(
      'valid harness "bfcl-travel-booking" (0 skills, 0 hooks, 2 prompt sections, 4 tools)',
    );
    const back = JSON.parse((await hsa(['export', 'mcp', harnessFile])).stdout) as {
      tools: Array<{ name: string; outputSchema?: { type: string } }>;
    };
    expect(back.tools.map((tool) => [tool.name, tool.outputSchema?.type])).toEqual([
      ['authenticate_travel', 'object'],
      ['book_flight', 'object'],
      ['cancel_booking', 'object'],
      ['compute_exchange_rate', 'object'],
    ]);
    // A line that is not JSON is named by its line.
    const broken = join(folder, 'broken.json');
    const lines = readFileSync(bfcl, 'utf8').split('\n');
    lines[2] = lines[2]!.slice(0, 40);
    writeFileSync(broken, lines.join('\n'));
    const refused = await hsa(['import', 'openai-tools', broken]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /broken\.json:3:41: invalid JSON on line 3 of a JSON Lines file \(one JSON value a line\): /,
    );
  });

  it('reports bad input with the JSON path and exit 1', async () => {
    const run = await hsa(['import', 'mcp', 'fixtures/importers/openai-tools.json']);
    expect(run.status).toBe(1);
    expect(run.stdout.trim()).toBe(
      'fixtures/importers/openai-tools.json:1 $: expected a tools/list result object, not array [invalid_type]',
    );
  });
});
