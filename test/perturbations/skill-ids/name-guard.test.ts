// The skill-id name guard refuses a candidate that occurs in any text of the harness or the trajectory,
// whether it is among the first names asked (searched directly) or asked after many (filtered by the
// texts' four-character windows first): both ways give one answer.
import { describe, expect, it } from 'vitest';
import { createNameGuard } from '../../../perturbations/skill-ids/skill-names.js';
import { baggageTrajectory, travelHarness } from '../../support/travel-harness.js';

describe('createNameGuard', () => {
  const harness = travelHarness();
  const trajectory = baggageTrajectory(harness);
  const harnessWord = 'allowance';
  const trajectoryOnly = trajectory.messages
    .flatMap((message) => (typeof message.content === 'string' ? message.content.split(/\s+/) : []))
    .find(
      (word) => /^[a-z]{6,}$/.test(word) && !JSON.stringify(harness).includes(word) && word !== harnessWord,
    );

  for (const asked of [0, 200]) {
    it(`refuses a name that occurs in the texts after ${asked} other names`, () => {
      expect(JSON.stringify(harness)).toContain(harnessWord);
      expect(trajectoryOnly).toBeDefined();
      const accept = createNameGuard(harness, { trajectory });
      for (let index = 0; index < asked; index++) expect(accept(`fresh_name_${index}`)).toBe(true);
      expect(accept(harnessWord)).toBe(false);
      expect(accept(trajectoryOnly as string)).toBe(false);
      expect(accept('qzxv_unseen_name')).toBe(true);
      // Without the trajectory, its words are free.
      expect(createNameGuard(harness)(trajectoryOnly as string)).toBe(true);
    });
  }
});
