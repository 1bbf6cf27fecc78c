export default async function globalTeardown() {
  await globalThis.__WALLET_TEST_CLEANUP__?.();
}
