// BFCL function docs as test material: the tools of a JSON Lines fixture of unedited function objects
// (test/perturbations/fixtures/README.md), and a harness that offers them with nothing else naming them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importOpenAITools } from '../../src/harness/importers/openai-tools.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness, Tool } from '../../src/harness/schema.js';
import { projectRoot } from './run-cli.js';
import { travelHarnessInput } from './travel-harness.js';

/** The tools of a JSON Lines fixture of BFCL function objects, one a line, through the OpenAI-tools door. */
export async function bfclTools(file: string): Promise<Tool[]> {
  const text = await readFile(join(projectRoot, 'test/perturbations/fixtures', file), 'utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return importOpenAITools(lines.map((line) => JSON.parse(line) as unknown));
}

/** A harness offering these tools: no skill body, prompt section (but `role`) or hook names anything of theirs. */
export function toolsHarness(tools: Tool[], role: string): Harness {
  const input = travelHarnessInput();
  input.tools.items = structuredClone(tools);
  input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
  input.prompt.sections = [{ id: 'role', title: 'Role', template: role }];
  input.hooks.items = [];
  return parseHarness(input);
}
