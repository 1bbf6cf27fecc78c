import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { isUuid } from '../../common/ids.js';
import type { SummaryQueryDto } from './dto/meter.dto.js';
import { MeterEventsRepository } from './meter-events.repository.js';
import { MetersService } from './meters.service.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
const MAX_BUCKETS = 1_000;
const WINDOW_MS = { hour: 3_600_000, day: 86_400_000 };

function time(name: string, raw: string): Date {
  const date = new Date(raw);
  if (!RFC3339.test(raw) || Number.isNaN(date.getTime())) {
    throw new AppError(Errors.E2004, `Invalid query parameter "${name}": must be an RFC 3339 timestamp.`);
  }
  return date;
}

/**
 * Usage per customer over a time range, in hour or day windows (UTC), aggregated by the meter's
 * formula: sum of values, count of events, or the last value in the window. Windows without events
 * are left out.
 */
@Injectable()
export class MeterSummariesService {
  constructor(
    private readonly events: MeterEventsRepository,
    private readonly meters: MetersService,
  ) {}

  async summarize(principal: Principal, meterId: string, query: SummaryQueryDto) {
    const meter = await this.meters.get(principal, meterId);
    if (!isUuid(query.customer_id))
      throw new AppError(Errors.E2004, 'Invalid query parameter "customer_id": must be an id.');
    const start = time('start_time', query.start_time);
    const end = time('end_time', query.end_time);
    const window = query.value_grouping_window ?? 'day';
    if (end <= start) throw new AppError(Errors.E2004, 'Invalid query parameter "end_time": must be after start_time.');
    if ((end.getTime() - start.getTime()) / WINDOW_MS[window] > MAX_BUCKETS) {
      throw new AppError(
        Errors.E2004,
        `Invalid query parameter "value_grouping_window": the range spans more than ${MAX_BUCKETS} windows.`,
      );
    }
    const rows = await this.events.summarize(
      principal.application.id,
      { meterId: meter.id, customerId: query.customer_id, start, end },
      meter.aggregation,
      window,
    );
    const data = rows.map((r) => {
      const from = new Date(r.bucket);
      return {
        object: 'billing.meter_event_summary' as const,
        livemode: principal.livemode,
        meter: meter.id,
        customer_id: query.customer_id,
        aggregated_value: Number(r.value),
        start_time: from.toISOString(),
        end_time: new Date(from.getTime() + WINDOW_MS[window]).toISOString(),
      };
    });
    return { object: 'list' as const, data, page: 1, limit: data.length, total_items: data.length, total_pages: 1 };
  }
}
