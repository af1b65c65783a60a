import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// Import boundaries of docs/LAYOUT: shared ← features/*/schema ← features/*/{server,ui} ← server / client.
const serverCode = ['**/server/**', '@/server/*', '@/server/**', '@/features/*/server/*', '@/features/*/server/**'];
const clientCode = ['**/ui/**', '**/client/**', '@/client/*', '@/client/**', '@/features/*/ui/*', '@/features/*/ui/**'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      '.e2e-data*/**',
      'drizzle/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      '*.config.js',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly' } },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'import-x/no-cycle': ['error', { maxDepth: 3 }],
      // Fastify plugins are async by contract even when they only register routes.
      '@typescript-eslint/require-await': 'off',
    },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'src/features/*/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: serverCode, message: 'UI code never imports server code (docs/LAYOUT).' }] },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts', 'src/features/*/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: clientCode, message: 'Server code never imports UI code (docs/LAYOUT).' }] },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@/features/*',
                '@/features/**',
                '@/server/*',
                '@/server/**',
                '@/client/*',
                '@/client/**',
                '../*',
              ],
              message: 'shared/ imports only zod and date-fns (docs/LAYOUT).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/features/*/*.schema.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...serverCode, ...clientCode],
              message: 'A feature contract imports only shared code and other contracts.',
            },
          ],
        },
      ],
    },
  },
);
