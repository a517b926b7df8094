// Lint rules that keep durable code honest (see STYLE.md "Habits we adopt").
const tseslint = require('typescript-eslint');
const js = require('@eslint/js');
const { builtinModules } = require('node:module');

const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`]);

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
    // Workflow code is replayed: no I/O, no Node APIs, and only type imports of effectful layers.
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins,
          patterns: [
            { group: ['**/store', '**/store/**', '**/gateway/**', '**/models', '**/models/**', '**/tools', '**/tools/**', '**/cli/**', '**/devserver/**', '**/config', '**/config/**', 'langchain', '@langchain/*', '@temporalio/worker', '@temporalio/client', '@temporalio/activity'], message: 'Workflow code must stay deterministic: no I/O or LangChain imports.' },
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Import activities as types only.' },
          ],
        },
      ],
    },
  },
);
