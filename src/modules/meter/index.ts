export { MeterModule } from './meter.module.js';
export { MeterEventForwarder } from './meter-event-forwarder.js';
export { SandboxBillingProvider } from './providers/sandbox-billing.provider.js';
