import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'test-results/**', 'playwright-report/**', 'apps/server/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  // The server's floors: core/ (errors, principal, audit), db/ and compute/ (drivers, the loop) never reach
  // up into http/ or modules/; the instance lifecycle lives with the instances module (modules/rental).
  {
    files: ['apps/server/src/core/**/*.ts', 'apps/server/src/db/**/*.ts', 'apps/server/src/compute/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)(modules|http)/', message: 'core/, db/ and compute/ are lower floors: they import nothing from http/ or modules/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The answers' schemas (packages/shared/src/views) are the server's; the console takes their types
      // only, so neither zod nor a schema reaches its bundle.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', allowTypeImports: true, message: 'The console validates no answers: import zod types only (import type).' }],
          patterns: [
            {
              group: ['@slg/shared/views/*'],
              allowTypeImports: true,
              message: "The console reads the answers' types only: import type { … } from '@slg/shared/views/…' (the schemas would bring zod into the bundle).",
            },
          ],
        },
      ],
    },
  },
  // The package's entry is what the console imports values from: it stays free of zod; the schemas live
  // in views/ (a subpath of their own).
  {
    files: ['packages/shared/src/**/*.ts'],
    ignores: ['packages/shared/src/views/**', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', allowTypeImports: true, message: 'Schemas belong in packages/shared/src/views, outside the entry the console imports values from.' }],
          patterns: [{ group: ['./views/*', '**/views/*'], allowTypeImports: true, message: 'The entry must not load the view schemas (they bring zod into the console).' }],
        },
      ],
    },
  },
);
