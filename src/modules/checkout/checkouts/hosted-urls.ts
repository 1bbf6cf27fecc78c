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

  /** A send_invoice invoice's hosted page (the invoice's UUIDv7 id, 74 random bits, is what opens it). */
  invoice(slug: string, id: string): string {
    return `${this.base}/pay/${encodeURIComponent(slug)}/invoices/${id}`;
  }

  paymentLink(slug: string, id: string): string {
    return `${this.base}/pay/${encodeURIComponent(slug)}/links/${id}`;
  }
}
