export { AuthModule } from './auth.module.js';
export { SessionsService, type IssuedSession, type VerifiedSession } from './sessions.service.js';
export { OAuthService, type CreatedClient } from './oauth/oauth.service.js';
export { LIFETIMES as OAUTH_LIFETIMES } from './oauth/oauth.model.js';
export { AuthErrors } from './auth.errors.js';
