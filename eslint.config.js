import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

// Import boundaries of docs/layout.md: shared ← features/*/schema ← features/*/{server,ui} ← server / client.
const serverCode = ['**/server/**', '@/server/*', '@/server/**', '@/features/*/server/*', '@/features/*/server/**'];
const clientCode = ['**/ui/**', '**/client/**', '@/client/*', '@/client/**', '@/features/*/ui/*', '@/features/*/ui/**'];

// docs/layout.md: a feature uses another feature only through its *.schema.ts and, on the server, its queries
// and tables (joins; see docs/adr/0003). A feature's screens never import another feature's screens; the one
// exception is the session hooks of auth (auth.api.ts), which are the shell's own context.
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const featureBoundaryZones = FEATURES.flatMap((feature) =>
  FEATURES.filter((other) => other !== feature).flatMap((other) => [
    {
      target: `./src/features/${feature}`,
      from: `./src/features/${other}/ui`,
      except: other === 'auth' ? ['./auth.api.ts'] : [],
      message: "A feature never imports another feature's screens; assemble them in src/client (docs/layout.md).",
    },
    {
      target: `./src/features/${feature}`,
      // Globs, so that `<feature>.*.queries.ts` (a queries module split by audience) and `<feature>.formulas.ts`
      // are allowed too; import-x takes glob exceptions only with a glob `from`, and matches them against the
      // absolute import path.
      from: `./src/features/${other}/server/**`,
      except: [
        `${import.meta.dirname}/src/features/${other}/server/${other}.{queries,*.queries,table,passwords,formulas}.ts`,
      ],
      message: 'On the server a feature uses another only through its queries module and tables (docs/layout.md).',
    },
  ]),
);

// docs/layout.md "Feature dependencies": features depend on each other in one direction. A feature imports
// only features earlier in this list; tests (*.test.ts, *.test.tsx) may reach further, to check one
// feature's data against another's. A new feature must be placed in the list.
const FEATURE_ORDER = [
  'x12',
  'audit',
  'providers',
  'payers',
  'patients',
  'coverage',
  'auth',
  'settings',
  'users',
  'system',
  'appointments',
  'worklist',
  'workqueue',
  'claims',
  'coordination',
  'submission',
  'remittances',
  'clearinghouse',
  'authorizations',
  'analytics',
  'billing',
  'dashboard',
  'portal',
  'search',
  'selftest',
  'compliance',
  'rtm',
];
const unordered = FEATURES.filter((f) => !FEATURE_ORDER.includes(f));
const gone = FEATURE_ORDER.filter((f) => !FEATURES.includes(f));
if (unordered.length || gone.length) {
  throw new Error(
    `FEATURE_ORDER in eslint.config.js: place ${unordered.join(', ') || '-'}; remove ${gone.join(', ') || '-'}`,
  );
}
const featureOrderZones = FEATURE_ORDER.flatMap((feature, i) =>
  FEATURE_ORDER.slice(i + 1).map((later) => ({
    target: `./src/features/${feature}`,
    from: `./src/features/${later}`,
    message: `${feature} comes before ${later} in FEATURE_ORDER: it may import only earlier features (docs/layout.md).`,
  })),
);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'data-bench/**',
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
    // One program from tsconfig.json rather than the project service: the same type information for every
    // file, the lint run's CPU about 6% lower (the service answers file by file, which npm test does not need).
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'import-x/no-cycle': ['error', { maxDepth: 3 }],
      'import-x/no-restricted-paths': ['error', { zones: featureBoundaryZones }],
      // Fastify plugins are async by contract even when they only register routes.
      '@typescript-eslint/require-await': 'off',
    },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...featureBoundaryZones, ...featureOrderZones] }] },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'src/features/*/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: serverCode, message: 'UI code never imports server code (docs/layout.md).' }] },
      ],
    },
  },
  {
    // The React Compiler's rules (all of the recommended set but the two hook rules) compile each file they
    // check, a fifth of the whole lint's time: they guard what the app renders, not how a test drives it.
    files: ['src/**/*.test.tsx'],
    rules: Object.fromEntries(
      Object.keys(reactHooks.configs.recommended.rules)
        .filter((rule) => rule !== 'react-hooks/rules-of-hooks' && rule !== 'react-hooks/exhaustive-deps')
        .map((rule) => [rule, 'off']),
    ),
  },
  {
    files: ['src/server/**/*.ts', 'src/features/*/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: clientCode, message: 'Server code never imports UI code (docs/layout.md).' }] },
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
              message: 'shared/ imports only zod and date-fns (docs/layout.md).',
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
