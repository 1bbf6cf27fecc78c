import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { DatabaseModule } from '../../common/database/database.module.js';
import { UsersModule } from '../users/index.js';
import { OAuthClient } from './entities/oauth-client.entity.js';
import { OAuthCode } from './entities/oauth-code.entity.js';
import { OAuthToken } from './entities/oauth-token.entity.js';
import { OneTimeSession } from './entities/one-time-session.entity.js';
import { OAuthController } from './oauth/oauth.controller.js';
import { OAuthModel } from './oauth/oauth.model.js';
import { OAuthRepository } from './oauth/oauth.repository.js';
import { OAuthService } from './oauth/oauth.service.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import { BearerStrategy } from './strategies/bearer.strategy.js';
import { SecretKeyStrategy } from './strategies/secret-key.strategy.js';
import { SessionStrategy } from './strategies/session.strategy.js';

/**
 * The three credential kinds behind the one AuthGuard (secret key, bearer, one-time session), the
 * OAuth 2.0 authorization server, and SessionsService. Global so hosted-flow modules can inject
 * SessionsService without importing this module.
 */
@Global()
@Module({
  imports: [
    PassportModule,
    UsersModule,
    DatabaseModule.forPlatformEntities([OneTimeSession, OAuthClient, OAuthCode, OAuthToken]),
  ],
  controllers: [OAuthController],
  providers: [
    SecretKeyStrategy,
    BearerStrategy,
    SessionStrategy,
    SessionsRepository,
    SessionsService,
    OAuthRepository,
    OAuthModel,
    OAuthService,
  ],
  exports: [SessionsService, OAuthService],
})
export class AuthModule {}
