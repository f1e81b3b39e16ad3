// The order test files start in: shuffled by the run's seed, as `sequence.shuffle.files` did, so a
// test that leans on another file's leftovers still fails and `--sequence.seed=N` repeats an
// order; but the cluster suites go first. Each starts a whole product (APIs, a worker, agents on
// PostgreSQL) and runs for one to two and a half minutes, five times longer than any other file.
// Shuffled, one of them often came last and ran alone while the other worker had nothing left:
// in one run failover started at 1,166 s of 1,310 s and was alone for its last 65 s.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { seededRandom } from './lib/seeded-random.ts';

const FIRST = /\.cluster\.test\.ts$/;

export default class ClusterFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const next = seededRandom(this.ctx.config.sequence.seed);
    const shuffled = [...files];
    for (let index = shuffled.length - 1; index > 0; index -= 1) {
      const other = Math.floor(next() * (index + 1));
      [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
    }
    const first = (file: TestSpecification) => (FIRST.test(file.moduleId) ? 0 : 1);
    return shuffled.sort((a, b) => first(a) - first(b));
  }
}
