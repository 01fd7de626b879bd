import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import drizzle from 'eslint-plugin-drizzle'
import reactHooks from 'eslint-plugin-react-hooks'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { readdirSync } from 'node:fs'

/** The feature folders of one side (`src/server/features`, `src/web/features`). */
const featuresOf = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)

/**
 * ARCHITECTURE.md "Allowed imports": shared is pure; web and server never import each other;
 * a feature never imports another feature; components and lib never import features or pages.
 */
const boundaries = [
  {
    target: './src/shared',
    from: ['./src/server', './src/web'],
    message: 'shared is imported by server and web, never the reverse.',
  },
  { target: './src/web', from: './src/server', message: 'The web app never imports the server.' },
  { target: './src/server', from: './src/web', message: 'The server never imports the web app.' },
  {
    target: ['./src/web/components', './src/web/lib'],
    from: ['./src/web/features', './src/web/pages'],
    message: 'components/ and lib/ are shared by every feature: they never import one.',
  },
  {
    target: [
      './src/server/db',
      './src/server/auth',
      './src/server/mail',
      './src/server/storage',
      './src/server/pdf',
      './src/server/policy.ts',
      './src/server/errors.ts',
      './src/server/config.ts',
    ],
    from: './src/server/features',
    message: 'Infrastructure never imports a feature; app.ts composes them.',
  },
  ...['server', 'web'].flatMap((side) =>
    featuresOf(`src/${side}/features`).map((feature) => ({
      target: `./src/${side}/features/${feature}`,
      from: [`./src/${side}/features`, ...(side === 'web' ? ['./src/web/pages'] : [])],
      except: [`./${feature}`],
      message:
        'A feature never imports another feature: share through src/shared or lib/, or compose in src/web/pages.',
    })),
  ),
]

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-*',
      'data',
      'node_modules',
      'src/server/db/migrations',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    // The TypeScript resolver reads what TypeScript and Vite accept: extensionless paths, folder
    // indexes and the package's `#…` aliases. With the node resolver alone, an import written
    // without its `.ts` resolved to nothing and passed every boundary.
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: './tsconfig.json' }),
        importX.createNodeResolver(),
      ],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaries }] },
  },
  {
    files: ['src/server/**/*.ts'],
    plugins: { drizzle },
    rules: {
      // Guard against an UPDATE or DELETE without WHERE: a forgotten condition changes every row.
      'drizzle/enforce-delete-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
      'drizzle/enforce-update-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
    },
  },
  {
    // Sonner loads with the first toast (lib/notify.ts); a static import would put it
    // back into every page's first script and skip mounting the Toaster.
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/lib/notify.ts', 'src/web/components/toaster.tsx'],
    rules: {
      // `import { type A }` keeps an empty import of its module in the bundle (verbatim module
      // syntax): a schema's whole zod chunk on a screen that only wanted a type.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'sonner',
              message: 'Use notifyError / notifySuccess / notifyInfo from lib/notify.ts.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
)
