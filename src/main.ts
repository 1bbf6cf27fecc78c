import { exitUnlessSupportedNode } from './node-version.js';
import { tracingEnabled } from './config/tracing.config.js';

// Checked before the server's modules load: an unsupported Node gets one line and exit code 1.
exitUnlessSupportedNode();
// Tracing, when an OTLP endpoint is configured, must hook module loading before the server's imports.
if (tracingEnabled()) await (await import('./tracing.js')).startTracing();
await import('./server.js');
