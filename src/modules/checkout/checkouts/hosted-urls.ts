import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../../config/app.config.js';

/** Links to the hosted pages, on PUBLIC_URL. The checkout's session is added as the URL fragment. */
@Injectable()
export class HostedUrls {
  private readonly base: string;

  constructor(config: ConfigService<AllConfig, true>) {
    this.base = config.get('app.publicUrl', { infer: true });
  }

  checkout(slug: string, id: string): string {
    return `${this.base}/pay/${encodeURIComponent(slug)}/checkouts/${id}`;
  }

  paymentLink(slug: string, id: string): string {
    return `${this.base}/pay/${encodeURIComponent(slug)}/links/${id}`;
  }
}
