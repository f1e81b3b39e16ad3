// Prints one plain closing line, `tests: N passed, N failed, N skipped`, after a Vitest run, so
// that CI logs state the count in a form any reader (human or machine) understands. Above it, the
// slowest files (import + tests + hooks), so a CI log says where a suite's minutes go.
import type { Reporter, TestModule } from 'vitest/node';

const SLOWEST_SHOWN = 15;

function seconds(module: TestModule): number {
  const { collectDuration, setupDuration, duration } = module.diagnostic();
  return (collectDuration + setupDuration + duration) / 1000;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const slowest = [...testModules].sort((a, b) => seconds(b) - seconds(a)).slice(0, SLOWEST_SHOWN);
    process.stdout.write(`\nslowest files:\n`);
    for (const module of slowest) {
      process.stdout.write(
        `  ${seconds(module).toFixed(1).padStart(7)} s  ${module.moduleId.replace(`${process.cwd()}/`, '')}\n`,
      );
    }
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let failedInModule = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedInModule += 1;
        else skipped += 1;
      }
      // A file that fails outside any test (a hook, an import) still counts as one failure.
      failed += module.state() === 'failed' && failedInModule === 0 ? 1 : failedInModule;
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
