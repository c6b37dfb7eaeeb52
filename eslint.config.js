import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'bench/results', 'test-results'] },
  js.configs.recommended,
  {
    files: ['scripts/**/*.mjs', '*.config.{js,ts}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Dependencies point down ARCHITECTURE.md's table only.
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict([
      {
        group: ['**/server/**', '**/worker/**', '**/ui/**', 'node:*', 'react', 'react-dom'],
        message: 'src/shared is pure.',
      },
    ]),
  },
  {
    files: ['src/worker/**/*.ts'],
    rules: restrict([
      {
        group: ['**/server/**', '**/ui/**', 'node:*', 'react'],
        message: 'The worker imports only src/shared.',
      },
    ]),
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: restrict([
      { group: ['**/server/**', 'node:*'], message: 'The UI never imports the server.' },
      {
        group: ['**/worker/*', '!**/worker/api-types*', '!**/worker/*?worker*'],
        message: 'The UI reaches the worker only through its API type.',
      },
    ]),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: restrict([
      {
        group: ['**/ui/**', '**/worker/**', 'react'],
        message: 'The server does not import browser code.',
      },
    ]),
  },
)
