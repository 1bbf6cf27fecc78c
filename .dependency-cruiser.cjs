/** Module boundaries (docs/ARCHITECTURE.md, docs/EXTENDING.md), checked in `npm run lint`. */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'common-is-a-kernel',
      comment: 'src/common imports no feature module.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'modules-meet-at-their-index',
      comment: "A module reaches another only through its index.ts: never its repository, entities or DTOs.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'providers-are-a-plug',
      comment:
        'Provider adapters (src/providers) implement the ports in src/providers/ports and use src/common; they never ' +
        'reach into a feature module. Features reach adapters through the ports and the registry.',
      severity: 'error',
      from: { path: '^src/providers/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'ledger-is-a-sink',
      comment:
        'Checkout, disputes and payouts post to the ledger; the ledger imports no feature module (customers supply ' +
        'their records through the BalanceCustomers port).',
      severity: 'error',
      from: { path: '^src/modules/ledger/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/ledger/' },
    },
    {
      name: 'only-repositories-touch-the-database',
      comment:
        'Only *.repository.ts and *.sql.ts files (and the kernel\'s database and list engine) get a database handle ' +
        '(ModeDb, PreparedStatements, a TypeORM DataSource or repository). Services compose repositories; they may ' +
        "carry a caller's transaction only as a type (import type { EntityManager }).",
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [
          '\\.repository\\.ts$',
          '\\.sql\\.ts$',
          '/entities/[^/]+\\.entity\\.ts$',
          '^src/common/database/',
          '^src/common/list/',
        ],
      },
      to: {
        path: [
          '^src/common/database/(mode-db|prepared-statements)\\.ts$',
          'node_modules/typeorm/',
          'node_modules/@nestjs/typeorm/',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
