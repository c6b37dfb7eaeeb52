import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })
const noGlobals = (names, message) => ({
  'no-restricted-globals': ['error', ...names.map((name) => ({ name, message }))],
})

// The server's folders (ARCHITECTURE.md's table) and the composition files above them.
const SERVER_AREAS = [
  'alerts',
  'auth',
  'backup',
  'collect',
  'discovery',
  'http',
  'hub',
  'live',
  'nodes',
  'notify',
  'setup',
  'sim',
  'store',
]
const BROWSER_CODE = {
  group: ['**/ui/**', '**/worker/**', 'react', 'react-dom'],
  message: 'The server does not import browser code.',
}
/** A server folder imports only the sibling folders in `allowed` (relative imports only). */
const serverArea = (area, allowed, why) => {
  const others = SERVER_AREAS.filter((name) => name !== area && !allowed.includes(name))
  return {
    files: [`src/server/${area}/**/*.ts`],
    rules: restrict([
      BROWSER_CODE,
      { regex: `^(\\.\\./)+(${others.join('|')})/`, message: `${why} (ARCHITECTURE.md).` },
      {
        regex: '^(\\.\\./)+(app|main|demo)\\.ts$',
        message: 'Only the composition root (app.ts) wires the server folders together.',
      },
    ]),
  }
}
const PURE = {
  group: ['**/server/**', '**/worker/**', '**/ui/**', 'node:*', 'react', 'react-dom'],
  message: 'src/shared is pure.',
}
/** A src/shared folder imports only the shared folders in `allowed`. */
const sharedArea = (area, allowed) => {
  const others = ['model', 'search', 'views', 'format', 'prefs'].filter(
    (name) => name !== area && !allowed.includes(name),
  )
  return {
    files: [`src/shared/${area}/**/*.ts`],
    rules: restrict([
      PURE,
      {
        regex: `^\\.\\./(${others.join('|')})/`,
        message: `src/shared/${area} imports only ${allowed.join(', ') || 'itself'} (ARCHITECTURE.md).`,
      },
    ]),
  }
}

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'bench/results', 'test-results', '.test-reports'] },
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
  // Type-aware rules: each file is checked in its runtime's project (tsconfig.json's references).
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Each runtime's globals only (the tsconfig per runtime says the same to the compiler).
  {
    files: ['src/shared/**/*.ts'],
    rules: noGlobals(
      ['window', 'document', 'process', 'Buffer'],
      'src/shared runs in the page, the worker and Node: no DOM or Node globals.',
    ),
  },
  {
    files: ['src/worker/**/*.ts'],
    rules: noGlobals(
      ['window', 'document', 'process', 'Buffer'],
      'The worker has no DOM and no Node globals.',
    ),
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: noGlobals(['process', 'Buffer'], 'The UI runs in the browser: no Node globals.'),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: noGlobals(['window', 'document'], 'The server runs in Node: no DOM.'),
  },
  // Dependencies point down ARCHITECTURE.md's table only.
  sharedArea('model', []),
  sharedArea('format', []),
  sharedArea('prefs', []),
  sharedArea('search', ['model']),
  sharedArea('views', ['model', 'search', 'format']),
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
  { files: ['src/server/**/*.ts'], rules: restrict([BROWSER_CODE]) },
  serverArea(
    'http',
    SERVER_AREAS.filter((name) => name !== 'sim'),
    'Routes reach the services, never the simulator',
  ),
  serverArea('hub', ['live'], 'The hub reads only the live state'),
  serverArea('collect', [], 'Collectors import only src/shared: no store, sockets or routes'),
  serverArea('alerts', ['store', 'notify'], 'The alert engine uses only its store and notify'),
  serverArea('notify', ['store'], 'Notifications import no routes, hub or collectors'),
  serverArea('auth', ['store'], 'auth uses only the store'),
  serverArea('store', [], 'The store imports only src/shared'),
  serverArea('discovery', ['store'], 'Discovery uses only the store'),
  serverArea('sim', [], 'The simulator imports only src/shared'),
  serverArea('live', ['collect'], 'The live state is fed by the collectors only'),
  serverArea('nodes', ['collect', 'store'], 'Node settings use the collectors and the store'),
  serverArea('backup', ['store'], 'Config backup uses only the store'),
  serverArea('setup', [], 'Setup imports only src/shared'),
  // Plain JavaScript (this file, scripts/) has no TypeScript project: no type-aware rules there.
  { files: ['**/*.{js,mjs}'], extends: [tseslint.configs.disableTypeChecked] },
)
