// The RL-stage exporters by format (hand-curated).
import type { RlExporter } from '../../../pipeline/rl.js';
import { openRlhfRlExporter, toOpenRlhfRow } from './openrlhf.js';
import { toTrlGrpoRow, trlRlExporter } from './trl.js';
import { toVerlRlRow, verlInteractionName, verlRlExporter } from './verl.js';

/** Every RL exporter, by format name. */
export const rlExporters: Readonly<Record<RlExporter['format'], RlExporter>> = Object.freeze({
  trl: trlRlExporter,
  verl: verlRlExporter,
  openrlhf: openRlhfRlExporter,
});

export {
  openRlhfRlExporter,
  toOpenRlhfRow,
  toTrlGrpoRow,
  toVerlRlRow,
  trlRlExporter,
  verlInteractionName,
  verlRlExporter,
};
