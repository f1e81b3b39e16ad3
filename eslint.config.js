// One lint set-up for every workspace. Type-aware rules catch what review misses:
// promises nobody awaits, switches that forget a case, and `any` leaking through.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Files allowed to read another module's tables, each for a join that makes a hot read one round
// trip: a signed-in request's session with its account (every request). Everything else takes
// the other module's service or port (the activity log asks the services module for names).
const crossModuleSqlAllowlist = ['apps/api/src/modules/auth/auth.queries.ts'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'apps/api/migrations/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A `default` is a deliberate answer for "everything else" (e.g. Stripe's hundreds of event types).
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      // Fastify plugins, hooks and handlers are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Every string a client sends is read by a contract or route schema: `text()` refuses what
    // PostgreSQL cannot store (NUL, lone surrogates); a bare `z.string()` would let it through.
    files: ['packages/contract/src/**/*.ts', 'apps/api/src/**/*.routes.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='z'][callee.property.name='string']",
          message:
            "Use text() from '@debesis/contract' (packages/contract/src/strings.ts): it refuses NUL and lone surrogates.",
        },
      ],
    },
  },
  {
    // A module reaches another only through its service or its in-transaction port, never its
    // SQL: importing another module's queries or tables is refused (types are fine: a row's type
    // is the shape a service returns). db/schema.ts gathers the tables for drizzle, a table names
    // another's in a foreign key, and app.ts (the composition root) wires queries into services.
    files: ['apps/api/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-support.ts', '**/*.table.ts', ...crossModuleSqlAllowlist],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/*.queries.ts', '../*/*.table.ts'],
              allowTypeImports: true,
              message:
                "Another module's SQL: take its service or in-transaction port (db/transaction.ts) as a dependency instead.",
            },
          ],
        },
      ],
    },
  },
  {
    // Command-line tools and benchmarks talk to a terminal on purpose.
    files: ['scripts/**', 'apps/agent/src/main.ts', 'apps/api/src/main.ts', 'apps/api/src/cli/**'],
    rules: { 'no-console': 'off' },
  },
);
