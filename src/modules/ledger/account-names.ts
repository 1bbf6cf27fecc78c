/** The ledger account of a connected account's balance (charges settle into it, payouts leave from it). */
export const connectedAccountName = (accountId: string) => `connected_${accountId.replaceAll('-', '')}`;
