// ESLint flat config: correctness (eslint + typescript-eslint recommended, React hooks), import cycles,
// architecture boundaries and size limits. Part of `npm test` (`npm run lint`, --max-warnings=0).
//
// TypeScript 7.0 ships no JavaScript compiler API, and typescript-eslint's parser needs one (peer range
// `typescript >=4.8.4 <6.1.0`; its tsgo backend needs TypeScript 7.1). So package.json follows the
// side-by-side layout the TypeScript 7 release notes and typescript-eslint's maintainers prescribe:
// `typescript` is the TypeScript 6 API package (`@typescript/typescript6`, bin `tsc6`), which only lint
// tooling loads, and `@typescript/native` is TypeScript 7.0.2, which provides the `tsc` that
// `npm run typecheck` runs. Revisit when typescript-eslint supports TypeScript 7.1's API.
//
// No type-aware rules: they would make every lint build a TypeScript 6 program of the whole project
// (slow on the 2-core machines), and `tsc` already type-checks; the rules below are syntactic.
import js from '@eslint/js'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const SOURCE = ['app/**/*.{ts,tsx}', 'server/**/*.{ts,tsx,mjs}', 'scripts/**/*.{ts,mjs}', 'bench/**/*.ts']
const TESTS = ['tests/**', '**/*.test.{ts,tsx}', 'bench/**']

/** `import type { X }` and `import { type X }` from a `.server` module (value imports are caught elsewhere). */
const typeImportFromServerModule = [
  {
    selector: "ImportDeclaration[importKind='type'][source.value=/\\.server/]",
    message: 'Client code must not depend on `.server` modules, not even for types: move the type to app/domain or app/utils.',
  },
  {
    selector: "ImportDeclaration[source.value=/\\.server/] > ImportSpecifier[importKind='type']",
    message: 'Client code must not depend on `.server` modules, not even for types: move the type to app/domain or app/utils.',
  },
]

export default tseslint.config(
  {
    ignores: [
      'build/',
      '.react-router/',
      'playwright-report/',
      'test-results/',
      'node_modules/',
      '.data/',
      'scratch/',
      'public/',
      '**/*.generated.ts',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      // `_name` marks a parameter kept for its position (Express error handlers, callbacks).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.tsx', 'app/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Resolves relative imports and the package.json `imports` (#app/*, #server/*, #tests/*), which
      // tsconfig.json mirrors in `paths`; the project has no other aliases.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './app/domain',
              from: ['./app/.server', './server', './app/components', './app/routes'],
              message: 'app/domain holds pure rules: no server, process, component or route code.',
            },
            {
              target: './app/components',
              from: ['./server', './app/.server'],
              message: 'Components run in the browser: no process code and no `.server` modules (types included).',
            },
            {
              target: './app/routes',
              from: './server',
              message: 'Routes must not reach into process code (server/): go through app/.server.',
            },
            {
              target: './app/.server/sources',
              from: './app/.server/search',
              message: 'Sources are below search: search uses sources, never the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'react-dom', 'react-router', 'react-i18next'].map((name) => ({ name, message: 'app/domain holds pure rules: no React.' })),
          patterns: [{ group: ['react-dom/*', '@react-router/*'], message: 'app/domain holds pure rules: no React.' }],
        },
      ],
    },
  },
  {
    files: ['app/components/**', 'app/utils/**/*.tsx', 'app/root.tsx', 'app/entry.client.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...typeImportFromServerModule] },
  },
  {
    files: SOURCE,
    ignores: TESTS.filter((pattern) => pattern !== 'bench/**'),
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // Tests read loosely shaped JSON fixtures (Stripe, Google, registry payloads) and poke into them.
    files: TESTS,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
