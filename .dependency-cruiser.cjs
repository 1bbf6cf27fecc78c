/** Module boundaries (docs/ARCHITECTURE.md), checked in `npm run lint`. */
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
      name: 'ledger-is-a-sink',
      comment: 'Collection, disputes and payouts post to the ledger; the ledger imports none of them.',
      severity: 'error',
      from: { path: '^src/modules/ledger/' },
      to: { path: '^src/modules/(collection|checkout|checkouts|charges|payment-links|disputes|payouts|accounts|meter)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
