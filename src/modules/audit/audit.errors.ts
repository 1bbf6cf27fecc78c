import { defineErrors } from '../../common/errors/error-catalog.js';

/** The audit log (docs/AUDIT.md). */
export const AuditErrors = defineErrors('audit', {
  E1270: {
    key: 'audit_role_required',
    http_status: 403,
    message: 'Only owners and admins of the application (and superusers) may read its audit log.',
  },
});
