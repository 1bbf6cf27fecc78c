import { exitUnlessSupportedNode } from '../node-version.js';

// Checked before the CLI's modules load: an unsupported Node gets one line and exit code 1.
exitUnlessSupportedNode();
await import('./run.js');
