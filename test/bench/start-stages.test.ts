import { describe, expect, it } from 'vitest';
import { createStageMeter, formatStages, parseStages } from '../../scripts/start-stages.js';

/** A clock that reads the next of `readings` on each call. */
const clockOf = (readings: number[]) => {
  let index = 0;
  return () => readings[index++] ?? Number.NaN;
};

describe("npm start's CPU by stage", () => {
  it('charges each stage the CPU between its entry and the next change, from the origin on', () => {
    // start-up 0→2, validate 2→3, sft 3→10, export 10→12, sft again 12→13 (added to sft's), files 13→13.5
    const meter = createStageMeter('start-up', clockOf([2, 3, 10, 12, 13, 13.5]));
    for (const stage of ['validate', 'sft', 'sft', 'export', 'sft', 'files']) meter.enter(stage);
    expect([...meter.finish()]).toEqual([
      ['start-up', 2],
      ['validate', 1],
      ['sft', 8],
      ['export', 2],
      ['files', 0.5],
    ]);
  });

  it('counts the first stage from the origin it is given', () => {
    const meter = createStageMeter('load', clockOf([5, 6]), 4);
    meter.enter('work');
    expect(Object.fromEntries(meter.finish())).toEqual({ load: 1, work: 1 });
  });

  it('prints one line the bench reads back from the whole output', () => {
    const line = formatStages(
      new Map([
        ['start-up', 3.44],
        ['sft', 35],
        ['export', 12.25],
      ]),
    );
    expect(line).toBe('CPU-s by stage: start-up 3.4, sft 35.0, export 12.3 (total 50.7)');
    expect(parseStages(`written:\n  out/x\n\ndone in 9.0 s\n${line}\n`)).toEqual({
      'start-up': 3.4,
      sft: 35,
      export: 12.3,
    });
  });

  it('reads nothing from an output without the line', () => {
    expect(parseStages('done in 9.0 s\n')).toBeUndefined();
  });
});
