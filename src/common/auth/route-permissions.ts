import { Injectable, type OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { Privilege } from '../context/principal.js';
import { AUTH_PRIVILEGES, PUBLIC_ROUTE } from '../http/decorators.js';
import {
  type Access,
  type PermissionGroup,
  requirementOf,
  type Role,
  rolesAllowed,
  type RouteRequirement,
} from './permissions.js';

/** A route's group and access with what the guard needs of them worked out at boot: the permission's name and the roles allowed per mode. */
export interface ResolvedRequirement {
  group: PermissionGroup;
  access: Access;
  /** `group:access`, as refusals name it. */
  permission: string;
  allowedRoles: Record<'test' | 'live', readonly Role[]>;
}

function resolve(requirement: RouteRequirement): ResolvedRequirement | 'any' | 'session' {
  if (typeof requirement === 'string') return requirement;
  const { group, access } = requirement;
  return {
    group,
    access,
    permission: `${group}:${access}`,
    allowedRoles: { test: rolesAllowed(group, access, 'test'), live: rolesAllowed(group, access, 'live') },
  };
}

const asList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? value : [value];

/** `api/v1/:app/x` + `:id` -> `/api/v1/{app}/x/{id}`: the path as the OpenAPI document spells it. */
export function openApiPath(controllerPath: string, handlerPath: string): string {
  const joined = [controllerPath, handlerPath]
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter((p) => p !== '')
    .join('/');
  return `/${joined}`.replace(/:(\w+)/g, '{$1}');
}

/**
 * Every authenticated route's entry in permissions.ts, resolved once at boot (not per request: a
 * request's check is one map read). A route with `@Auth(...)` and no entry stops the app from
 * starting, naming the route, so a new endpoint cannot ship without saying who may call it.
 */
@Injectable()
export class RoutePermissions implements OnModuleInit {
  private readonly byHandler = new Map<object, ResolvedRequirement | 'any' | 'session'>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const missing: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, (...args: unknown[]) => unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const targets = [handler, controller];
        if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) === true) continue;
        const privileges = this.reflector.getAllAndOverride<Privilege[]>(AUTH_PRIVILEGES, targets) ?? [];
        if (privileges.length === 0) continue;
        const verb = RequestMethod[method];
        for (const base of asList(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined)) {
          for (const path of asList(Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined)) {
            const route = `${verb} ${openApiPath(base, path)}`;
            const requirement = requirementOf(verb, openApiPath(base, path));
            if (requirement === undefined) missing.push(route);
            else if (!this.byHandler.has(handler)) this.byHandler.set(handler, resolve(requirement));
          }
        }
      }
    }
    if (missing.length > 0) {
      throw new Error(`routes without an entry in src/common/auth/permissions.ts: ${missing.join(', ')}`);
    }
  }

  /** The requirement of the route `handler` serves; undefined for a route without `@Auth(...)`. */
  of(handler: object): ResolvedRequirement | 'any' | 'session' | undefined {
    return this.byHandler.get(handler);
  }
}
