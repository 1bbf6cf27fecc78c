import { exitUnlessSupportedNode } from './node-version.js';

// Checked before the server's modules load: an unsupported Node gets one line and exit code 1.
exitUnlessSupportedNode();
await import('./server.js');
