import { Foundation1763800000000 } from './1763800000000-Foundation.js';
import { Customers1763800000100 } from './1763800000100-Customers.js';
import { Auth1763800300000 } from './1763800300000-Auth.js';
import { IdempotencyKeys1763800200000 } from './1763800200000-IdempotencyKeys.js';
import { Ledger1763800400000 } from './1763800400000-Ledger.js';
import { Metering1763800790000 } from './1763800790000-Metering.js';
import { Accounts1763801000000 } from './1763801000000-Accounts.js';
import { Payouts1763801100000 } from './1763801100000-Payouts.js';
import { Collection1763801200000 } from './1763801200000-Collection.js';
import { CollectionExpiry1763801210000 } from './1763801210000-CollectionExpiry.js';
import { Events1763801300000 } from './1763801300000-Events.js';
import { Refunds1763801400000 } from './1763801400000-Refunds.js';
import { CardTokens1763802100000 } from './1763802100000-CardTokens.js';
import { PayoutsLifecycle1763801500000 } from './1763801500000-PayoutsLifecycle.js';
import { DisputeLifecycle1763801600000 } from './1763801600000-DisputeLifecycle.js';
import { EventRetention1763801900000 } from './1763801900000-EventRetention.js';
import { HoldReleaseAmounts1763802000000 } from './1763802000000-HoldReleaseAmounts.js';
import { ProviderEvents1763802200000 } from './1763802200000-ProviderEvents.js';
import { ConnectAccounts1763803200000 } from './1763803200000-ConnectAccounts.js';
import { MeterForwardingHotUpdates1763803300000 } from './1763803300000-MeterForwardingHotUpdates.js';
import { WebhookEndpointClaims1763803450000 } from './1763803450000-WebhookEndpointClaims.js';
import { IdempotencyLeases1763803500000 } from './1763803500000-IdempotencyLeases.js';
import { BillingCatalog1764400100000 } from './1764400100000-BillingCatalog.js';
import { SavedPaymentMethods1764400200000 } from './1764400200000-SavedPaymentMethods.js';
import { TestClocksAndSubscriptions1764400300000 } from './1764400300000-TestClocksAndSubscriptions.js';
import { SubscriptionCheckout1764400600000 } from './1764400600000-SubscriptionCheckout.js';
import { Files1764400800000 } from './1764400800000-Files.js';
import { Invoicing1764500100000 } from './1764500100000-Invoicing.js';
import { InvoiceCollection1764500200000 } from './1764500200000-InvoiceCollection.js';
import { CreditGrants1764500300000 } from './1764500300000-CreditGrants.js';
import { ProviderDisputes1764500600000 } from './1764500600000-ProviderDisputes.js';
import { ManualCapture1764500700000 } from './1764500700000-ManualCapture.js';
import { InvoiceCredit1764501000000 } from './1764501000000-InvoiceCredit.js';
import { DisputeCloseAtProvider1764501200000 } from './1764501200000-DisputeCloseAtProvider.js';
import { ReportRuns1764501300000 } from './1764501300000-ReportRuns.js';
import { FileContentParts1764501400000 } from './1764501400000-FileContentParts.js';
import { BalanceStatements1764501500000 } from './1764501500000-BalanceStatements.js';
import { ReconciliationRuns1764501600000 } from './1764501600000-ReconciliationRuns.js';
import { EventTraceparent1764501700000 } from './1764501700000-EventTraceparent.js';
import { RestrictedKeysAndRoles1764501800000 } from './1764501800000-RestrictedKeysAndRoles.js';
import { AuditLog1764501900000 } from './1764501900000-AuditLog.js';
import { TraceLinks1764502100000 } from './1764502100000-TraceLinks.js';
import { MeterEventPartitions1764502200000 } from './1764502200000-MeterEventPartitions.js';
import { EventPartitions1764502400000 } from './1764502400000-EventPartitions.js';
import { ChargePaymentMethodType1764502500000 } from './1764502500000-ChargePaymentMethodType.js';
import { PendingLegs1764502700000 } from './1764502700000-PendingLegs.js';
import { AuditPartitions1764502800000 } from './1764502800000-AuditPartitions.js';
import { IdempotencyKeyPartitions1764502900000 } from './1764502900000-IdempotencyKeyPartitions.js';
import { MeterEventOutboxPartitions1764503000000 } from './1764503000000-MeterEventOutboxPartitions.js';
import { BalanceTransactionCustomerIndex1764503100000 } from './1764503100000-BalanceTransactionCustomerIndex.js';

/** Every migration, in order. Listed explicitly (not globbed) so the CLI, the app and the tests load the same set. */
export const MIGRATIONS = [
  Foundation1763800000000,
  Customers1763800000100,
  IdempotencyKeys1763800200000,
  Auth1763800300000,
  Ledger1763800400000,
  Metering1763800790000,
  Accounts1763801000000,
  Payouts1763801100000,
  Collection1763801200000,
  CollectionExpiry1763801210000,
  Events1763801300000,
  Refunds1763801400000,
  PayoutsLifecycle1763801500000,
  DisputeLifecycle1763801600000,
  EventRetention1763801900000,
  HoldReleaseAmounts1763802000000,
  CardTokens1763802100000,
  ProviderEvents1763802200000,
  ConnectAccounts1763803200000,
  MeterForwardingHotUpdates1763803300000,
  WebhookEndpointClaims1763803450000,
  IdempotencyLeases1763803500000,
  BillingCatalog1764400100000,
  SavedPaymentMethods1764400200000,
  TestClocksAndSubscriptions1764400300000,
  SubscriptionCheckout1764400600000,
  Files1764400800000,
  Invoicing1764500100000,
  InvoiceCollection1764500200000,
  CreditGrants1764500300000,
  ProviderDisputes1764500600000,
  ManualCapture1764500700000,
  InvoiceCredit1764501000000,
  DisputeCloseAtProvider1764501200000,
  ReportRuns1764501300000,
  FileContentParts1764501400000,
  BalanceStatements1764501500000,
  ReconciliationRuns1764501600000,
  EventTraceparent1764501700000,
  RestrictedKeysAndRoles1764501800000,
  AuditLog1764501900000,
  TraceLinks1764502100000,
  MeterEventPartitions1764502200000,
  EventPartitions1764502400000,
  ChargePaymentMethodType1764502500000,
  PendingLegs1764502700000,
  AuditPartitions1764502800000,
  IdempotencyKeyPartitions1764502900000,
  MeterEventOutboxPartitions1764503000000,
  BalanceTransactionCustomerIndex1764503100000,
];
