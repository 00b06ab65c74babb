// Type-aware lint for the whole workspace: typescript-eslint's type-checked rules catch a floating promise,
// a promise passed where a callback's result is ignored, an `await` of a non-promise and a switch that misses a case.
// Layout is Prettier's job (`.prettierrc.json`); `pnpm lint` runs both.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'coverage/**',
      'packed/**',
      '.cache/**',
      '.hookgate-tmp*/**',
      'docs/.vitepress/dist/**',
      'docs/.vitepress/cache/**',
      'docs/public/api/**',
      'examples/next-receiver/.next/**',
      'examples/next-receiver/next-env.d.ts',
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      // One program for the whole workspace: the root tsconfig maps every @hookgate/* import to its src/, so a file
      // in one package sees the others' real types without a build (each package's own tsconfig resolves them
      // through dist/, which a fresh checkout lacks, and would make a program per package). The inspector UI runs in
      // the browser and has its own (DOM) tsconfig.
      parserOptions: {
        project: ['./tsconfig.json', './packages/emulator/inspector-ui/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The no-unsafe-* family flags every use of an `any` (JSON.parse, framework request objects). The code narrows
      // untrusted input with validators instead; these rules are left for a later pass, not hidden line by line.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // An async function without an await is how a handler type that returns a promise is met.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Tests poke at `any`-typed fixtures and framework internals on purpose.
    files: ['**/test/**', '**/*.test.ts', 'bench/**', 'examples/**', 'scripts/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', 'docs/.vitepress/**', '**/tsup.config.ts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
