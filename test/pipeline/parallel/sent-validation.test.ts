// An example sent to an augment thread is a structured copy: the main thread's validation of it goes with
// it, and the thread's certificate facts read that validation instead of walking the input again (walks
// counted, not timed). Under another harness text the validation is not taken, and the copy is walked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import { createRunContext } from '../../../src/harness/run-context.js';
import { adoptSentValidation, sentValidation } from '../../../src/pipeline/parallel/sent-validation.js';
import { validationFacts } from '../../../src/trajectory/facts.js';
import { trajectoryWalks, validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';

const fixture = new URL('../../../fixtures/livestream/', import.meta.url).pathname;

describe('the validation sent with an example', () => {
  it('is read by the facts of the thread copy, which is not walked again', async () => {
    const main = await loadHarnessFile(`${fixture}harness.yaml`);
    const thread = await loadHarnessFile(`${fixture}harness.yaml`);
    const line = JSON.parse(readFileSync(`${fixture}trajectories.jsonl`, 'utf8').split('\n')[0] as string);
    const { trajectory, valid } = validateTrajectory(line, main);
    if (!trajectory) throw new Error('the fixture line is not a trajectory');
    expect(valid).toBe(true);
    const [copy, sent] = structuredClone([trajectory, sentValidation(trajectory)]);
    expect(adoptSentValidation(copy, sent, thread, createRunContext())).toBe(true);
    const before = trajectoryWalks().validate;
    const facts = validationFacts(copy, thread);
    expect(trajectoryWalks().validate).toBe(before);
    expect(facts.valid).toBe(true);
    expect(facts.trajectory).toBe(copy);
    // The same facts a walk of the copy gives.
    const walked = validateTrajectory(structuredClone(trajectory), thread);
    expect(JSON.stringify(facts.decisions)).toBe(JSON.stringify(walked.decisions));
  });

  it('is not taken under another harness text', async () => {
    const main = await loadHarnessFile(`${fixture}harness.yaml`);
    // The same content with one tool's properties in another order: the offered tools are derived as
    // written, so the trajectory's derived content differs.
    const other = await loadHarnessFile(`${fixture}harness.yaml`);
    const properties = (index: number) =>
      (other.tools.items[index]?.parameters as { properties?: Record<string, unknown> } | undefined)
        ?.properties ?? {};
    const at = other.tools.items.findIndex((_, index) => Object.keys(properties(index)).length > 1);
    expect(at).toBeGreaterThanOrEqual(0);
    const tool = other.tools.items[at]!;
    const reversed = Object.fromEntries(Object.entries(properties(at)).reverse());
    const items = other.tools.items.with(at, {
      ...tool,
      parameters: { ...(tool.parameters as object), properties: reversed },
    });
    const reordered = { ...other, tools: { ...other.tools, items } } as typeof other;
    const line = JSON.parse(readFileSync(`${fixture}trajectories.jsonl`, 'utf8').split('\n')[0] as string);
    const { trajectory } = validateTrajectory(line, main);
    if (!trajectory) throw new Error('the fixture line is not a trajectory');
    const [copy, sent] = structuredClone([trajectory, sentValidation(trajectory)]);
    expect(adoptSentValidation(copy, sent, reordered, createRunContext())).toBe(false);
    const before = trajectoryWalks().validate;
    validationFacts(copy, reordered);
    expect(trajectoryWalks().validate).toBe(before + 1);
  });
});
