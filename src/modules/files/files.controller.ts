import {
  Body,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  StreamableFile,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdParam } from '../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { CreateFileDto, UploadFileBodyDto } from './dto/create-file.dto.js';
import { FileDto } from './dto/file.dto.js';
import { FileUploadInterceptor, type UploadedPart } from './file-upload.interceptor.js';
import { FileErrors } from './files.errors.js';
import { FILE_LIST, FilesService } from './files.service.js';
import { toDownload } from './files.download.js';

const fileId = new IdParam((id) => new AppError(Errors.E4004, `No file with id "${id}".`));

@WalletController('files', { country: false })
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @UseInterceptors(FileUploadInterceptor)
  @ApiOperation({
    summary: 'Upload a file',
    description:
      'multipart/form-data with `file` (PDF, JPEG or PNG, at most 10 MB; the type is read from the content) and `purpose`.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadFileBodyDto })
  @ApiOkResponse({ type: FileDto })
  @ApiErrors(
    Errors.E2000,
    FileErrors.E5300,
    FileErrors.E5301,
    FileErrors.E5302,
    FileErrors.E5303,
    FileErrors.E5304,
    FileErrors.E5310,
  )
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateFileDto,
    @UploadedFile() part: UploadedPart | undefined,
  ) {
    return this.files.create(principal, dto, part);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List files' })
  @ApiListQuery(FILE_LIST)
  @ApiListResponse(FileDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(FILE_LIST) query: ListQuery) {
    return this.files.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a file' })
  @ApiOkResponse({ type: FileDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', fileId) id: string) {
    return this.files.retrieve(principal, id);
  }

  @Get(':id/contents')
  @Auth('machine', 'user', 'superuser')
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({ summary: "Download a file's bytes" })
  @ApiProduces('application/pdf', 'image/jpeg', 'image/png')
  @ApiOkResponse({ description: 'The bytes, with their Content-Type and Content-Disposition: attachment.' })
  @ApiErrors(Errors.E4004, FileErrors.E5310)
  async contents(@CurrentPrincipal() principal: Principal, @Param('id', fileId) id: string): Promise<StreamableFile> {
    return toDownload(await this.files.contents(principal, id));
  }
}
