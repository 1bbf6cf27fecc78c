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
    {
      name: 'checkout-targets-import-no-sub-room',
      comment:
        'Checkout sub-rooms are layered targets < checkouts < payments < hosted: targets/ (payment intents, ' +
        'invoices) imports no other sub-room (the provider ports under payments/providers/ are not a sub-room). ' +
        'Controllers are the HTTP edge of the resource they name and are left out (POST /payment_intents/{id}/capture ' +
        'is a payment step).',
      severity: 'error',
      from: { path: '^src/modules/checkout/targets/', pathNot: '\\.controller\\.ts$' },
      to: {
        path: '^src/modules/checkout/(checkouts|payments|hosted)/',
        pathNot: '^src/modules/checkout/payments/providers/',
      },
    },
    {
      name: 'checkout-checkouts-import-targets-services-only',
      comment:
        "checkouts/ reaches targets/ only through its services, and neither payments/ nor hosted/. Controllers " +
        "are the HTTP edge of the resource they name and are left out (POST /checkouts/{id}/confirm is a payment).",
      severity: 'error',
      from: { path: '^src/modules/checkout/checkouts/', pathNot: '\\.controller\\.ts$' },
      to: {
        path: '^src/modules/checkout/(targets|payments|hosted)/',
        pathNot: ['^src/modules/checkout/targets/[^/]+\\.service\\.ts$', '^src/modules/checkout/payments/providers/'],
      },
    },
    {
      name: 'checkout-payments-use-services-not-repositories',
      comment:
        "payments/ and hosted/ change targets and checkouts only through their services (each aggregate's " +
        'status has one writer), never their repositories; payments/ imports nothing of hosted/.',
      severity: 'error',
      from: { path: '^src/modules/checkout/(payments|hosted)/' },
      to: {
        path: [
          '^src/modules/checkout/(targets|checkouts)/[^/]+\\.repository\\.ts$',
          '^src/modules/checkout/payments/[^/]+\\.repository\\.ts$',
        ],
        pathNot: '^src/modules/checkout/$1/',
      },
    },
    {
      name: 'checkout-hosted-is-the-top',
      comment: 'hosted/ (the pages and the 3-D Secure return) is the top of checkout: no other sub-room imports it.',
      severity: 'error',
      from: { path: '^src/modules/checkout/(targets|checkouts|payments)/' },
      to: { path: '^src/modules/checkout/hosted/' },
    },
    {
      name: 'controllers-inject-no-repositories',
      comment:
        'A controller is one line over a service: it never takes a repository (the service composes them).',
      severity: 'error',
      from: { path: '^src/.+\\.controller\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
