export { UsersModule } from './users.module.js';
export { UsersService, toUserResponse, type UserResponse, MAX_FAILED_LOGINS, LOCK_MS } from './users.service.js';
export type { User } from './entities/user.entity.js';
export { ROLES, type Role } from './entities/membership.entity.js';
export { UsersErrors } from './users.errors.js';
