export { MeterModule } from './meter.module.js';
export { MeterEventForwarder } from './meter-event-forwarder.js';
export { SandboxBillingProvider } from './providers/sandbox-billing.provider.js';
export { MeterEventDto } from './dto/meter-event.dto.js';
