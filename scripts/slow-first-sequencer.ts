// The unit and API files' order (vitest.config.ts): shuffled by the run's seed, as Vitest's own
// random order is (a test that leans on another file's leftovers fails; `--sequence.seed=N`
// repeats an order), except that the files that take minutes start first. Two workers share the
// files; one of the cluster suites (two APIs, a worker and nodes, killed and restarted: 1½ to 4
// minutes) drawn last kept one worker busy long after the other had finished, which is the tail
// this order removes.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files that take minutes: the API's cluster suites, then the agent's live ones. */
const SLOW = [/\.cluster\.test\.ts$/, /\.live\.test\.ts$/];

const rank = (spec: TestSpecification) => {
  const index = SLOW.findIndex((pattern) => pattern.test(spec.moduleId));
  return index === -1 ? SLOW.length : index;
};

/** A seeded generator (mulberry32): the same seed gives the same order. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const next = random(this.ctx.config.sequence.seed);
    const shuffled = [...files];
    for (let index = shuffled.length - 1; index > 0; index -= 1) {
      const other = Math.floor(next() * (index + 1));
      [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
    }
    // Array.prototype.sort is stable: within a rank the shuffled order stands.
    return shuffled.sort((a, b) => rank(a) - rank(b));
  }
}
