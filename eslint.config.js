// ESLint for the whole tree: TypeScript, React hooks, accessibility, and the arrows between the folders
// (server → {app, api} → contract, never back: docs/architecture.md). Formatting is Prettier's (.prettierrc.json).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Which folder may not import which: each zone names the importing folder and the folders it must not reach. */
const boundaries = [
  {
    target: './contract',
    from: ['./app', './api', './server'],
    message: 'contract/ is the bottom layer: it imports neither app/, api/ nor server/.',
  },
  { target: './api', from: ['./app', './server'], message: 'api/ may import contract/ only: shared things belong in contract/.' },
  {
    target: './app',
    from: ['./api', './server'],
    message: 'app/ reaches the api through its client (app/utils/api.server.ts), and shares types through contract/.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'public/build/**',
      'public/sw.js',
      'public/offline.js',
      'node_modules/**',
      'data/**',
      '.cache/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A variable set after closures that read it were made (a timer their callbacks clear) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A job names its queue by the queue's declaration (api/jobs/queues.ts), never by a string: the declaration
      // holds the sender and the worker to one payload.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^(send|define|failLost)$/]:matches([callee.object.name='jobs'], [callee.object.property.name='jobs'])[arguments.0.type=/^(Literal|TemplateLiteral)$/]",
          message: 'Name the queue by its declaration in api/jobs/queues.ts, not by a string.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@react-email/components',
              message: 'Import each mail component from its own package (@react-email/text…): the barrel loads Tailwind and more.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'tests/component/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Uploads carry no caption files yet: captions and transcripts come with the player of issue 21, which turns
      // this rule back on.
      'jsx-a11y/media-has-caption': 'off',
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'tests/component/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Tests read the api's JSON and assert on it: a wrong shape fails the assertion, so typing every answer buys little.
    files: ['tests/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
