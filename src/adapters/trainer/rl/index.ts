// The RL-stage exporters by format (hand-curated).
import type { RlExporter } from '../../../pipeline/rl.js';
import { openRlhfLengths, openRlhfRlExporter, toOpenRlhfRow } from './openrlhf.js';
import { stateId, toolsByState } from './states.js';
import { toTrlGrpoRow, trlRlExporter } from './trl.js';
import { trlToolProblem } from './trl-tool-methods.js';
import {
  toVerlRlRow,
  verlAgentName,
  verlInteractionName,
  verlMaxParallelCalls,
  verlRlExporter,
} from './verl.js';
import { toVerlToolSchema } from './verl-tool-schema.js';

/**
 * Every RL exporter, by format name.
 *
 * @example
 * const exporter = rlExporters.verl;
 */
export const rlExporters: Readonly<Record<RlExporter['format'], RlExporter>> = Object.freeze({
  trl: trlRlExporter,
  verl: verlRlExporter,
  openrlhf: openRlhfRlExporter,
});

export {
  openRlhfLengths,
  openRlhfRlExporter,
  stateId,
  toOpenRlhfRow,
  toolsByState,
  toTrlGrpoRow,
  toVerlRlRow,
  toVerlToolSchema,
  trlRlExporter,
  trlToolProblem,
  verlAgentName,
  verlInteractionName,
  verlMaxParallelCalls,
  verlRlExporter,
};
