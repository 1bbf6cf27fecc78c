import * as plugs from './plugs.js';
import type { ProviderPlug } from './ports/provider-plug.port.js';

/** The plugs src/providers/plugs.ts lists, for src/config (keys, settings) and the adapter registry. */
export const PROVIDER_PLUGS: readonly ProviderPlug[] = Object.values(plugs);
