import tseslint from 'typescript-eslint';

const CATALOG_ERRORS = [
  {
    selector:
      'NewExpression[callee.name=/^(HttpException|BadRequestException|NotFoundException|UnauthorizedException|ForbiddenException)$/]',
    message: 'Throw AppError with a catalog definition instead of an HttpException.',
  },
  {
    selector: "Decorator[expression.callee.name='ApiResponse']",
    message: 'Document errors with @ApiErrors(...) so the docs follow the catalog.',
  },
  {
    selector: "Decorator[expression.callee.name='IsOptional']",
    message: 'Use Optional() from common/http/fields: @IsOptional() also lets null through, which reaches the service.',
  },
];

/** Only *.repository.ts and *.sql.ts talk to the database (the import side is dependency-cruiser's rule). */
const NO_SQL_OUTSIDE_REPOSITORIES = [
  {
    selector: "CallExpression[callee.property.name='query'][arguments.0.type=/^(TemplateLiteral|Literal)$/]",
    message: 'SQL belongs in a *.repository.ts (or a *.sql.ts statement); call a repository method instead.',
  },
  {
    selector: 'CallExpression[callee.property.name=/^(createQueryBuilder|getRepository)$/]',
    message: 'Query builders and TypeORM repositories belong in a *.repository.ts; call a repository method instead.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'bench/results/**', 'test/fixtures/**', 'sdks/*/src/generated/**', 'sdks/*/dist/**', 'examples/typed-client/wallet-api.d.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...CATALOG_ERRORS],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [
      'src/**/*.repository.ts',
      'src/**/*.sql.ts',
      'src/**/*.spec.ts',
      'src/common/database/**',
      'src/common/list/**',
    ],
    rules: { 'no-restricted-syntax': ['error', ...CATALOG_ERRORS, ...NO_SQL_OUTSIDE_REPOSITORIES] },
  },
  {
    files: ['src/common/http/decorators.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
