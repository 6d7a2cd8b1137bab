// `hsa augment`'s warnings before it writes: a part the harness lacks is one line for all the operators that
// work on it (BFCL's vehicle suite, tools only, printed 14 lines with the same two causes); any other
// operator that cannot apply keeps its own line with its reason.
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { planApplicability } from '../../src/augment/applicability.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { applicabilityWarnings } from '../../src/cli/applicability-warnings.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const hat = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

describe('applicabilityWarnings', () => {
  it('names a missing part once for its operators, and every other operator on its own line', async () => {
    const input = travelHarnessInput();
    input.skills.items = [];
    input.prompt.sections = input.prompt.sections.filter((section) => !section.template.includes('skill'));
    input.hooks.items = [];
    const harness = parseHarness(input);
    const { operators } = await planApplicability(hat, harness, []);
    const lines = applicabilityWarnings(operators, harness);
    const skillOperators = operators.filter((entry) => entry.dimension.startsWith('skill-'));
    expect(skillOperators.length).toBeGreaterThan(0);
    expect(skillOperators.every((entry) => !entry.applies)).toBe(true);
    expect(lines).toContain(
      `warning: the harness has no skills: the policy's ${skillOperators.length} skill-content and skill-ids operators cannot apply`,
    );
    expect(lines).toContain("warning: the harness has no hooks: the policy's 5 hooks operators cannot apply");
    // No skill or hook operator has a line of its own; the others that cannot apply do, with their reason.
    expect(lines.some((line) => /warning: (?:skill-|hooks\/)/u.test(line))).toBe(false);
    const others = operators.filter(
      (entry) => !entry.applies && !entry.dimension.startsWith('skill-') && entry.dimension !== 'hooks',
    );
    for (const entry of others)
      expect(lines).toContain(`warning: ${entry.operator} cannot apply to this harness: ${entry.reason}`);
    expect(lines.length).toBe(2 + others.length);
  });

  it('keeps a line per operator where the harness has the part', async () => {
    const harness = parseHarness(travelHarnessInput());
    const { operators } = await planApplicability(hat, harness, []);
    const lines = applicabilityWarnings(operators, harness);
    expect(lines).toEqual(
      operators
        .filter((entry) => !entry.applies)
        .map((entry) => `warning: ${entry.operator} cannot apply to this harness: ${entry.reason}`),
    );
  });
});
