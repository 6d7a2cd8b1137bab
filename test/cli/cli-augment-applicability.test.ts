// `hsa augment` says up front when operators or the whole policy cannot apply to a harness, and
// `--require-change` turns "nothing can change" into exit 1 before anything is written.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planApplicability } from '../../src/augment/applicability.js';
import { policyFromOptions } from '../../src/cli/operators-registry.js';
import { toChatCompletionTools } from '../../src/harness/offered-tools.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { runCli } from '../support/run-cli.js';
import { call, result, travelContext, travelHarnessInput } from '../support/travel-harness.js';

const input = travelHarnessInput();
input.tools.items = [];
const harness = parseHarness(input);
const baggage = harness.skills.items.find((skill) => skill.id === 'baggage');
const trajectory: Trajectory = {
  id: 'no-tools-1',
  harness: { id: harness.id },
  context: travelContext,
  tools: toChatCompletionTools(harness),
  messages: [
    { role: 'system', content: renderSystemPrompt(harness, travelContext) },
    { role: 'user', content: 'What is the cabin bag rule?' },
    call('load_skill', { skill_id: 'baggage' }, 'c1'),
    result('c1', baggage?.body ?? ''),
    { role: 'assistant', content: 'One cabin bag; the weight depends on your fare.' },
  ],
};

describe('applicability of a policy', () => {
  it('tools-only cannot change a harness without tools, and says why', async () => {
    expect(validateTrajectory(trajectory, harness).valid).toBe(true);
    const { plan } = await policyFromOptions('tools-only', undefined);
    const found = await planApplicability(plan, harness, [trajectory]);
    expect(found.canChange).toBe(false);
    expect(found.operators.map((entry) => [entry.operator, entry.applies])).toEqual([
      ['tools/rename', false],
      ['tools/rename-parameters', false],
    ]);
    expect(found.operators.every((entry) => (entry.reason ?? '').length > 0)).toBe(true);
  });

  it('hsa augment warns on stderr, and with --require-change exits 1 without writing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-applicability-'));
    const harnessFile = join(folder, 'harness.json');
    const trajectoriesFile = join(folder, 'trajectories.jsonl');
    writeFileSync(harnessFile, JSON.stringify(input));
    writeFileSync(trajectoriesFile, `${JSON.stringify(trajectory)}\n`);
    const args = [
      'augment',
      '--harness',
      harnessFile,
      '--trajectories',
      trajectoriesFile,
      '--variants',
      '2',
      '--policy',
      'tools-only',
    ];
    const warned = runCli([...args, '--out', join(folder, 'rows.jsonl')]);
    expect(warned.status).toBe(0);
    expect(warned.stderr).toContain(
      "warning: the harness has no tools: the policy's 2 tools operators cannot apply",
    );
    expect(warned.stderr).toContain('warning: policy tools-only cannot change this harness');
    // The summary counts the unchanged copies among the rows written.
    expect(warned.stdout).toContain('rows: 2 written + 0 uncertified = 1 × 2 variants');
    expect(warned.stdout).toContain('of which 2 unchanged copies of the base');
    // -q prints no warning (issue 40): only errors, and the exit code, remain.
    const quiet = runCli([...args, '--out', join(folder, 'quiet.jsonl'), '-q']);
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe('');
    const refused = runCli([...args, '--out', join(folder, 'refused.jsonl'), '--require-change']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('policy tools-only cannot change this harness');
    expect(existsSync(join(folder, 'refused.jsonl'))).toBe(false);
  });
});
