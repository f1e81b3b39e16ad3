// One lint set-up for every workspace. Type-aware rules catch what review misses:
// promises nobody awaits, switches that forget a case, and `any` leaking through.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'apps/api/migrations/**', '**/*.js', '**/*.mjs'],
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
    // Command-line tools and benchmarks talk to a terminal on purpose.
    files: ['scripts/**', 'apps/agent/src/main.ts', 'apps/api/src/main.ts', 'apps/api/src/cli/**'],
    rules: { 'no-console': 'off' },
  },
);
