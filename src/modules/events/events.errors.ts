import { defineErrors } from '../../common/errors/error-catalog.js';

/** Webhook endpoint codes (E51xx of the dependency-failures group, reserved for webhooks). */
export const EventErrors = defineErrors('webhooks', {
  E5101: {
    key: 'webhook_url_invalid',
    http_status: 400,
    message:
      'The webhook URL must be an absolute http(s) URL with a host, no user or password, at most 2048 characters.',
  },
  E5102: { key: 'webhook_url_not_https', http_status: 422, message: 'A live webhook endpoint must use https://.' },
  E5103: {
    key: 'webhook_url_loopback',
    http_status: 422,
    message: 'A live webhook endpoint may not be a loopback address (localhost, 127.0.0.0/8, ::1).',
  },
  E5104: {
    key: 'webhook_url_private_address',
    http_status: 422,
    message:
      'A live webhook endpoint may not be a private address (10/8, 172.16/12, 192.168/16, 100.64/10 CGNAT, fc00::/7).',
  },
  E5105: {
    key: 'webhook_url_link_local',
    http_status: 422,
    message: 'A webhook endpoint may not be a link-local or cloud metadata address (169.254/16, fe80::/10).',
  },
  E5106: {
    key: 'webhook_url_reserved_address',
    http_status: 422,
    message:
      'A live webhook endpoint may not be an unspecified, multicast, documentation or otherwise reserved address.',
  },
  E5107: {
    key: 'webhook_url_unresolvable',
    http_status: 422,
    message: "The webhook URL's host name does not resolve to any address.",
  },
  E5108: {
    key: 'webhook_event_type_unknown',
    http_status: 400,
    message: 'enabled_events may name only "*" or known event types (docs/EVENTS.md).',
  },
  E5109: {
    key: 'webhook_endpoint_disabled',
    http_status: 409,
    message: 'The webhook endpoint is disabled: enable it before resending to it.',
  },
  E5110: {
    key: 'webhook_url_port_not_allowed',
    http_status: 422,
    message:
      "A deployed service delivers webhooks only to the scheme's default port (443 for https://, 80 for http://), the ports its network policy lets out.",
  },
  E5111: {
    key: 'webhook_endpoint_already_disabled',
    http_status: 409,
    message: 'The webhook endpoint is already disabled.',
  },
});
