/**
 * Every real provider the service plugs in, one line each: a provider is its folder under
 * src/providers and its line here (docs/EXTENDING.md, "Adding a provider"). The sandboxes are not
 * plugs: they live in the modules whose tables back them and serve test mode only.
 */
export { opnPlug } from './opn/opn.plug.js';
export { stripePlug } from './stripe/stripe.plug.js';
