import { Readable } from 'node:stream';
import { Get, Header, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { AUDIT_EVENT_LIST, AuditReader } from './audit-reader.service.js';
import { AuditEventDto, AuditExportQueryDto } from './dto/audit-event.dto.js';

@WalletController('audit_events', { country: false })
export class AuditController {
  constructor(private readonly audit: AuditReader) {}

  @Get()
  @Auth('user', 'superuser')
  @ApiOperation({
    summary: 'List audit events',
    description:
      "The application's audit log, both modes (`livemode` says which; null for what has no mode), newest first. " +
      'Owners and admins (bearer tokens) and superusers only. docs/AUDIT.md.',
  })
  @ApiListQuery(AUDIT_EVENT_LIST)
  @ApiListResponse(AuditEventDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(AUDIT_EVENT_LIST) query: ListQuery) {
    return this.audit.list(principal, query);
  }

  @Get('export')
  @Auth('user', 'superuser')
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({
    summary: 'Export audit events',
    description:
      'Every audit event of the application created in [from, to), oldest first, one JSON object per line ' +
      '(the list’s records), streamed. Owners and admins (bearer tokens) and superusers only.',
  })
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({ description: 'JSON lines, one audit event each.' })
  @ApiErrors(Errors.E2000)
  async export(@CurrentPrincipal() principal: Principal, @Query() query: AuditExportQueryDto): Promise<StreamableFile> {
    const rows = await this.audit.export(principal, {
      from: query.from ? new Date(query.from) : null,
      to: query.to ? new Date(query.to) : null,
    });
    const lines = Readable.from(
      (async function* () {
        for await (const row of rows) yield `${JSON.stringify(row)}\n`;
      })(),
    );
    return new StreamableFile(lines, { type: 'application/x-ndjson' });
  }
}
