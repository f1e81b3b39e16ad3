// The module boundaries of .dependency-cruiser.cjs (at the repository's root) hold for the API's
// modules. The same rules run on a few scratch modules as well, so a rule that stopped catching
// anything (a path pattern gone stale, an option dropped) fails here instead of passing quietly.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as IConfiguration;
const MODULES = 'apps/api/src/modules';

/** What the rules find under `baseDir`: each broken rule as `rule: from → to (loop)`. */
async function check(baseDir: string): Promise<{ cruised: number; broken: string[] }> {
  const { output } = await cruise([MODULES], {
    ...config.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: config.forbidden ?? [] },
  });
  const { summary } = output as ICruiseResult;
  const broken = summary.violations
    .map((violation) => {
      const loop = violation.cycle?.map((step) => path.basename(step.name)).join(' → ');
      return `${violation.rule.name}: ${path.basename(violation.from)} → ${path.basename(violation.to)}${loop ? ` (${loop})` : ''}`;
    })
    .sort();
  return { cruised: summary.totalCruised, broken };
}

const violations = async (baseDir: string) => (await check(baseDir)).broken;

describe('module boundaries', () => {
  it('hold for the API modules', async () => {
    const { cruised, broken } = await check(root);
    expect(broken).toEqual([]);
    // Each module's files were read (a wrong base folder would find nothing and pass).
    expect(cruised).toBeGreaterThan(200);
  });

  describe('on scratch modules', () => {
    let scratch: string | undefined;
    afterEach(async () => {
      if (scratch) await rm(scratch, { recursive: true, force: true });
      scratch = undefined;
    });

    /** Writes `files` (path under the modules folder → source) into a new scratch folder. */
    async function modules(files: Record<string, string>): Promise<string> {
      scratch = await mkdtemp(path.join(os.tmpdir(), 'debesis-boundaries-'));
      for (const [file, source] of Object.entries(files)) {
        const full = path.join(scratch, MODULES, file);
        await mkdir(path.dirname(full), { recursive: true });
        await writeFile(full, source);
      }
      return scratch;
    }

    it('allow a module to use a lower one, and a test to reach anywhere', async () => {
      const base = await modules({
        'lower/lower.ts': 'export const lower = 1;\n',
        'upper/upper.ts': "import { lower } from '../lower/lower.ts';\nexport const upper = lower;\n",
        'lower/lower.test.ts': "import { upper } from '../upper/upper.ts';\nexport const seen = upper;\n",
      });
      expect(await violations(base)).toEqual([]);
    });

    it('catch two modules that need each other, even for a type alone', async () => {
      const base = await modules({
        'lower/lower.ts': "import type { Upper } from '../upper/upper.ts';\nexport type Lower = Upper;\n",
        'upper/upper.ts': "import type { Lower } from '../lower/lower.ts';\nexport type Upper = Lower | 1;\n",
      });
      expect(await violations(base)).toEqual([
        'no-module-cycle: lower → upper (upper → lower)',
        'no-module-cycle: upper → lower (lower → upper)',
      ]);
    });

    it('catch a loop around three modules', async () => {
      const base = await modules({
        'a/a.ts': "import { b } from '../b/b.ts';\nexport const a = () => b();\n",
        'b/b.ts': "import { c } from '../c/c.ts';\nexport const b = () => c();\n",
        'c/c.ts': "import { a } from '../a/a.ts';\nexport const c = () => a();\n",
      });
      const broken = await violations(base);
      expect(broken).toHaveLength(3);
      expect(broken.every((line) => line.startsWith('no-module-cycle: '))).toBe(true);
    });

    it('catch a module file in a subfolder, where the cycle rule would not see it', async () => {
      const base = await modules({
        'lower/deeper/lower.ts': 'export const lower = 1;\n',
        'upper/upper.ts': "import { lower } from '../lower/deeper/lower.ts';\nexport const upper = lower;\n",
      });
      expect(await violations(base)).toEqual(['module-files-flat: upper.ts → lower.ts']);
    });
  });
});
