import { Controller, Get, Post } from '@nestjs/common';
import { type DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Auth, BASE_PATH, Public } from '../http/decorators.js';
import { openApiPath, RoutePermissions } from './route-permissions.js';

@Controller(`${BASE_PATH}/charges`)
class KnownRoutes {
  @Get()
  @Auth('machine', 'user', 'superuser')
  list() {}

  @Get('shell')
  @Public()
  shell() {}
}

@Controller(`${BASE_PATH}/charges`)
class UnknownRoute {
  @Post(':id/teleport')
  @Auth('machine')
  teleport() {}
}

const routesOf = (...controllers: Array<new () => object>) =>
  new RoutePermissions(
    { getControllers: () => controllers.map((metatype) => ({ metatype })) } as unknown as DiscoveryService,
    new MetadataScanner(),
    new Reflector(),
  );

describe('RoutePermissions', () => {
  it('spells a route as the OpenAPI document does', () => {
    expect(openApiPath('api/v1/:app/platform/wallet/customers', ':id')).toBe(
      '/api/v1/{app}/platform/wallet/customers/{id}',
    );
    expect(openApiPath('', 'oauth/me')).toBe('/oauth/me');
  });

  it("resolves an authenticated route's entry at boot, with the roles allowed per mode", () => {
    const routes = routesOf(KnownRoutes);
    routes.onModuleInit();
    expect(routes.of(KnownRoutes.prototype.list)).toEqual({
      group: 'charges',
      access: 'read',
      permission: 'charges:read',
      allowedRoles: {
        test: ['owner', 'admin', 'developer', 'analyst', 'viewer'],
        live: ['owner', 'admin', 'developer', 'analyst', 'viewer'],
      },
    });
    expect(routes.of(KnownRoutes.prototype.shell)).toBeUndefined();
  });

  it('refuses to boot with an authenticated route missing from permissions.ts, naming it', () => {
    expect(() => routesOf(KnownRoutes, UnknownRoute).onModuleInit()).toThrow(
      'routes without an entry in src/common/auth/permissions.ts: POST /api/v1/{app}/platform/wallet/charges/{id}/teleport',
    );
  });
});
