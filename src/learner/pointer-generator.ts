// The pointer-generator: for each decision, a context vector h (the mean embedding of each group of context
// words, summed), a GENERATOR route (a softmax over the names of the slot's training vocabulary), a COPY
// route (a softmax over the offered candidates, scored by h · candidate embedding + weights · flags) and a
// learned GATE g = σ(u · h) that mixes them: P(name) = g · P_gen(name) + (1 − g) · P_copy(name). Both routes
// start at zero, the gate at ½: nothing prefers a route before the data does. Trained by Adam on −log P.
import type { Random } from '../augment/random.js';
import { type DecisionFeatures, flagNames, type Slot, slots } from './decisions.js';
import { featureBuckets } from './text-features.js';

/** A parameter table with Adam moments; only the rows a step touched are updated. */
class Table {
  readonly weights: Float32Array;
  private readonly first: Float32Array;
  private readonly second: Float32Array;
  private readonly gradient: Float32Array;
  private readonly marked: Uint8Array;
  private touched: number[] = [];

  constructor(
    readonly rows: number,
    readonly width: number,
    init?: Random,
    scale = 0,
  ) {
    const size = rows * width;
    this.weights = new Float32Array(size);
    this.first = new Float32Array(size);
    this.second = new Float32Array(size);
    this.gradient = new Float32Array(size);
    this.marked = new Uint8Array(rows);
    if (init && scale > 0)
      for (let index = 0; index < size; index++) this.weights[index] = (init.next() * 2 - 1) * scale;
  }

  /** Adds `scale · vector` to a row's gradient. */
  add(row: number, vector: Float32Array | Float64Array, scale: number): void {
    if (scale === 0) return;
    if (!this.marked[row]) {
      this.marked[row] = 1;
      this.touched.push(row);
    }
    const offset = row * this.width;
    for (let index = 0; index < this.width; index++)
      this.gradient[offset + index] =
        (this.gradient[offset + index] as number) + scale * (vector[index] as number);
  }

  /** One Adam step over the touched rows (bias-corrected with the global step count). */
  step(rate: number, step: number): void {
    const beta1 = 0.9;
    const beta2 = 0.999;
    const correction1 = 1 - beta1 ** step;
    const correction2 = 1 - beta2 ** step;
    for (const row of this.touched) {
      const offset = row * this.width;
      for (let index = offset; index < offset + this.width; index++) {
        const gradient = this.gradient[index] as number;
        const first = beta1 * (this.first[index] as number) + (1 - beta1) * gradient;
        const second = beta2 * (this.second[index] as number) + (1 - beta2) * gradient * gradient;
        this.first[index] = first;
        this.second[index] = second;
        this.weights[index] =
          (this.weights[index] as number) -
          (rate * (first / correction1)) / (Math.sqrt(second / correction2) + 1e-8);
        this.gradient[index] = 0;
      }
      this.marked[row] = 0;
    }
    this.touched = [];
  }
}

/** The learner's sizes and training settings. */
export interface PointerGeneratorSettings {
  /** Width of the context and candidate embeddings. */
  dimension: number;
  /** Adam learning rate. */
  rate: number;
}

/** What one decision comes to: the mixed probability of every name, and the two routes behind it. */
export interface DecisionOutput {
  /** Probability per name (generator and copy mixed), in a stable order: vocabulary, then candidates. */
  names: Array<{ name: string; probability: number; generated: number; copied: number }>;
  gate: number;
}

interface SlotParameters {
  vocabulary: string[];
  index: Map<string, number>;
  generator: Table;
  flags: Table;
  gate: Table;
}

interface Forward {
  hidden: Float64Array;
  groupSizes: number[];
  generated: Float64Array;
  copied: Float64Array;
  candidateVectors: Float64Array[];
  gate: number;
  parameters: SlotParameters;
}

function softmax(logits: Float64Array): Float64Array {
  const out = new Float64Array(logits.length);
  if (logits.length === 0) return out;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of logits) if (value > max) max = value;
  let sum = 0;
  for (let index = 0; index < logits.length; index++) {
    const value = Math.exp((logits[index] as number) - max);
    out[index] = value;
    sum += value;
  }
  for (let index = 0; index < out.length; index++) out[index] = (out[index] as number) / sum;
  return out;
}

/**
 * A pointer-generator over the three slots (action, key, value), with its parameters.
 *
 * @example
 * const model = new PointerGenerator({ action: ['get_price', '<reply>'], key: [], value: [] }, settings, rng);
 */
export class PointerGenerator {
  readonly settings: PointerGeneratorSettings;
  private readonly context: Table;
  private readonly candidate: Table;
  private readonly slotParameters: Record<Slot, SlotParameters>;
  private steps = 0;

  constructor(
    vocabulary: Record<Slot, readonly string[]>,
    settings: PointerGeneratorSettings,
    random: Random,
  ) {
    this.settings = settings;
    const width = settings.dimension + 1;
    // Small random embeddings break the symmetry of the bilinear copy score; routes still start equal:
    // the generator's weights and the flag weights start at zero, the gate at ½.
    this.context = new Table(featureBuckets, width, random.fork('context'), 0.1);
    this.candidate = new Table(featureBuckets, width, random.fork('candidate'), 0.1);
    this.slotParameters = Object.fromEntries(
      slots.map((slot) => {
        const names = [...vocabulary[slot]];
        return [
          slot,
          {
            vocabulary: names,
            index: new Map(names.map((name, position) => [name, position])),
            generator: new Table(Math.max(1, names.length), width),
            flags: new Table(1, flagNames.length),
            gate: new Table(1, width),
          },
        ];
      }),
    ) as Record<Slot, SlotParameters>;
  }

  /** The names the generator can write for a slot (its training vocabulary). */
  vocabulary(slot: Slot): readonly string[] {
    return this.slotParameters[slot].vocabulary;
  }

  private forward(decision: DecisionFeatures): Forward {
    const width = this.settings.dimension + 1;
    const parameters = this.slotParameters[decision.slot];
    const hidden = new Float64Array(width);
    const groupSizes: number[] = [];
    for (const group of decision.groups) {
      groupSizes.push(group.length);
      const share = 1 / group.length;
      for (const row of group) {
        const offset = row * width;
        for (let index = 0; index < width - 1; index++)
          hidden[index] =
            (hidden[index] as number) + share * (this.context.weights[offset + index] as number);
      }
    }
    hidden[width - 1] = 1;
    const vocabularySize = parameters.vocabulary.length;
    const logits = new Float64Array(vocabularySize);
    for (let word = 0; word < vocabularySize; word++) {
      let sum = 0;
      const offset = word * width;
      for (let index = 0; index < width; index++)
        sum += (parameters.generator.weights[offset + index] as number) * (hidden[index] as number);
      logits[word] = sum;
    }
    const candidateVectors: Float64Array[] = [];
    const scores = new Float64Array(decision.candidates.length);
    for (const [position, candidate] of decision.candidates.entries()) {
      const vector = new Float64Array(width);
      const share = 1 / Math.max(1, candidate.tokens.length);
      for (const row of candidate.tokens) {
        const offset = row * width;
        for (let index = 0; index < width; index++)
          vector[index] =
            (vector[index] as number) + share * (this.candidate.weights[offset + index] as number);
      }
      candidateVectors.push(vector);
      let score = 0;
      for (let index = 0; index < width; index++)
        score += (vector[index] as number) * (hidden[index] as number);
      for (let index = 0; index < candidate.flags.length; index++)
        score += (parameters.flags.weights[index] as number) * (candidate.flags[index] as number);
      scores[position] = score;
    }
    let gateLogit = 0;
    for (let index = 0; index < width; index++)
      gateLogit += (parameters.gate.weights[index] as number) * (hidden[index] as number);
    return {
      hidden,
      groupSizes,
      generated: softmax(logits),
      copied: softmax(scores),
      candidateVectors,
      gate: 1 / (1 + Math.exp(-gateLogit)),
      parameters,
    };
  }

  /**
   * The probability of every name at a decision: generated names first, then offered names not in the
   * vocabulary, each with what each route gave it.
   */
  predict(decision: DecisionFeatures): DecisionOutput {
    const forward = this.forward(decision);
    const byName = new Map<
      string,
      { name: string; probability: number; generated: number; copied: number }
    >();
    for (const [position, name] of forward.parameters.vocabulary.entries()) {
      const generated = forward.generated[position] as number;
      byName.set(name, { name, probability: forward.gate * generated, generated, copied: 0 });
    }
    for (const [position, candidate] of decision.candidates.entries()) {
      const copied = forward.copied[position] as number;
      const entry = byName.get(candidate.name) ?? {
        name: candidate.name,
        probability: 0,
        generated: 0,
        copied: 0,
      };
      entry.copied += copied;
      entry.probability += (1 - forward.gate) * copied;
      byName.set(candidate.name, entry);
    }
    return { names: [...byName.values()], gate: forward.gate };
  }

  /** −log P(target), without learning. */
  loss(decision: DecisionFeatures, target: string): number {
    const forward = this.forward(decision);
    return -Math.log(this.targetProbability(decision, forward, target).probability + 1e-12);
  }

  private targetProbability(decision: DecisionFeatures, forward: Forward, target: string) {
    const word = forward.parameters.index.get(target);
    const generated = word === undefined ? 0 : (forward.generated[word] as number);
    let copied = 0;
    for (const [position, candidate] of decision.candidates.entries())
      if (candidate.name === target) copied += forward.copied[position] as number;
    const fromGenerator = forward.gate * generated;
    const fromCopy = (1 - forward.gate) * copied;
    return { generated, copied, fromGenerator, fromCopy, probability: fromGenerator + fromCopy, word };
  }

  /** Adds the gradient of −log P(target) for one decision; returns the loss. Call `step` after a batch. */
  accumulate(decision: DecisionFeatures, target: string, weight = 1): number {
    const forward = this.forward(decision);
    const width = this.settings.dimension + 1;
    const { parameters, hidden, gate } = forward;
    const target_ = this.targetProbability(decision, forward, target);
    const probability = target_.probability + 1e-12;
    const hiddenGradient = new Float64Array(width);
    // Generator: dL/dz_v = (A/P)(P_gen(v) − [v = y]).
    const generatorShare = target_.fromGenerator / probability;
    if (generatorShare > 0)
      for (let word = 0; word < parameters.vocabulary.length; word++) {
        const gradient =
          weight * generatorShare * ((forward.generated[word] as number) - (word === target_.word ? 1 : 0));
        if (gradient === 0) continue;
        parameters.generator.add(word, hidden, gradient);
        const offset = word * width;
        for (let index = 0; index < width; index++)
          hiddenGradient[index] =
            (hiddenGradient[index] as number) +
            gradient * (parameters.generator.weights[offset + index] as number);
      }
    // Copy: dL/ds_c = (B/P)(P_copy(c) − [c = y]).
    const copyShare = target_.fromCopy / probability;
    if (copyShare > 0)
      for (const [position, candidate] of decision.candidates.entries()) {
        const gradient =
          weight * copyShare * ((forward.copied[position] as number) - (candidate.name === target ? 1 : 0));
        if (gradient === 0) continue;
        const vector = forward.candidateVectors[position] as Float64Array;
        for (let index = 0; index < width; index++)
          hiddenGradient[index] = (hiddenGradient[index] as number) + gradient * (vector[index] as number);
        const share = gradient / Math.max(1, candidate.tokens.length);
        for (const row of candidate.tokens) this.candidate.add(row, hidden, share);
        parameters.flags.add(0, candidate.flags, gradient);
      }
    // Gate: dL/da = −g(1 − g)(P_gen(y) − P_copy(y)) / P.
    const gateGradient = (-weight * gate * (1 - gate) * (target_.generated - target_.copied)) / probability;
    parameters.gate.add(0, hidden, gateGradient);
    for (let index = 0; index < width; index++)
      hiddenGradient[index] =
        (hiddenGradient[index] as number) + gateGradient * (parameters.gate.weights[index] as number);
    // Context embeddings (the last component of h is the constant 1).
    hiddenGradient[width - 1] = 0;
    for (const [position, group] of decision.groups.entries()) {
      const share = 1 / (forward.groupSizes[position] as number);
      for (const row of group) this.context.add(row, hiddenGradient, share);
    }
    return -Math.log(probability);
  }

  /** Applies the accumulated gradients (one Adam step). */
  step(): void {
    this.steps++;
    const rate = this.settings.rate;
    this.context.step(rate, this.steps);
    this.candidate.step(rate, this.steps);
    for (const slot of slots) {
      const parameters = this.slotParameters[slot];
      parameters.generator.step(rate, this.steps);
      parameters.flags.step(rate, this.steps);
      parameters.gate.step(rate, this.steps);
    }
  }
}
