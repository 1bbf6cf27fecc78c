import { defineErrors } from '../../common/errors/error-catalog.js';

/** Report runs (docs/REPORTS.md). */
export const ReportingErrors = defineErrors('reporting', {
  E7900: {
    key: 'report_interval_invalid',
    http_status: 400,
    message: 'interval_start must be before interval_end, and interval_end must not be in the future.',
  },
  E7901: {
    key: 'report_columns_invalid',
    http_status: 400,
    message: 'columns names a column the report type does not have.',
  },
  E7902: { key: 'report_timezone_invalid', http_status: 400, message: 'timezone is not an IANA time zone name.' },
  E7903: {
    key: 'report_currency_not_applicable',
    http_status: 400,
    message: 'The report type has no currency: leave parameters.currency out.',
  },
});
