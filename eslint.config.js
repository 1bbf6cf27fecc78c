import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name=/^(HttpException|BadRequestException|NotFoundException|UnauthorizedException|ForbiddenException)$/]",
          message: 'Throw AppError with a catalog definition instead of an HttpException.',
        },
        {
          selector: "Decorator[expression.callee.name='ApiResponse']",
          message: 'Document errors with @ApiErrors(...) so the docs follow the catalog.',
        },
      ],
    },
  },
  {
    files: ['src/common/http/decorators.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
