// Lint rules that keep durable code honest (see STYLE.md "Habits we adopt").
const tseslint = require('typescript-eslint');
const js = require('@eslint/js');
const importX = require('eslint-plugin-import-x');
const { builtinModules } = require('node:module');

const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`]);

/** A folder of src/ and everything under it, as import patterns. */
const folder = (name) => [`**/${name}`, `**/${name}/**`];

// Contract modules that load no zod, directly or through their imports (workflows/ARCHITECTURE.md,
// "Module scope costs CPU per execution"); every other contract module is types-only for workflows.
const zodFreeContracts = [
  'add-usage',
  'admission',
  'batch-counts',
  'bounded-text',
  'deferred-tools',
  'failure-types',
  'finished-task',
  'format-zod-issues',
  'identity-search-attributes',
  'item-end-without-result',
  'mcp-tool-names',
  'message-text',
  'search-attributes',
  'subagent-task-wire',
  'task-queues',
  'task-spend',
  'tool-names',
  'tool-patterns',
  'usage-of-message',
  'workflow-types',
];

module.exports = tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.deerflow/**', '.tools/**', 'coverage/**', 'bin/**', 'scripts/*.js', 'eslint.config.js', 'jest.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Module dependencies go one way (STYLE habit 9). Type-only imports add no runtime edge.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // Workflow code is replayed: no I/O, no Node APIs, and only type imports of effectful layers.
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins,
          patterns: [
            {
              group: [
                ...['store', 'gateway', 'models', 'tools', 'cli', 'devserver', 'config', 'registry', 'mcp', 'telemetry', 'worker', 'client', 'testing'].flatMap(folder),
                'langchain',
                '@langchain/*',
                '@temporalio/worker',
                '@temporalio/client',
                '@temporalio/activity',
              ],
              message: 'Workflow code must stay deterministic: no I/O or LangChain imports.',
            },
            {
              group: [...folder('middleware/agent'), ...folder('receipts/agent'), ...folder('skills')],
              message: 'LangChain middleware and skills run in activities only (the pure decisions are the top-level modules).',
            },
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Import activities as types only.' },
            {
              // The folder index, or any module of it not listed above.
              regex: `/contracts(/(?!(${zodFreeContracts.join('|')})$)[^/]+)?$`,
              allowTypeImports: true,
              message: 'Workflow code loads only zod-free contract modules (see workflows/ARCHITECTURE.md); import the others as types, or through input-schemas.ts.',
            },
          ],
        },
      ],
    },
  },
);
