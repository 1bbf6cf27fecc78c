import { ApiProperty } from '@nestjs/swagger';
import { AddressDto, CapabilitiesDto, ShippingDto } from './create-customer.dto.js';

class TaxIdRecordDto {
  @ApiProperty({ example: 'th_vat' }) type: string;
  @ApiProperty({ example: '0105551234567' }) value: string;
  @ApiProperty({ example: 'TH', nullable: true }) country: string;
  @ApiProperty({ example: 'pending' }) verification_status: string;
}

/** The Customer record of the contract. */
export class CustomerDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'customer' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'Somchai Jaidee', nullable: true }) name: string;
  @ApiProperty({ example: 'somchai@example.com', nullable: true }) email: string;
  @ApiProperty({ example: '+66812345678', nullable: true }) phone: string;
  @ApiProperty({ example: 'none', enum: ['none', 'exempt', 'reverse'] }) tax_exempt: string;
  @ApiProperty({ example: null, nullable: true }) business_name: string;
  @ApiProperty({ example: 'THB', nullable: true }) currency: string;
  @ApiProperty({ example: false }) is_system: boolean;
  @ApiProperty({ example: false }) is_application_customer: boolean;
  @ApiProperty({ type: AddressDto, nullable: true }) address: AddressDto;
  @ApiProperty({ type: ShippingDto, nullable: true }) shipping: ShippingDto;
  @ApiProperty({ type: CapabilitiesDto }) capabilities: CapabilitiesDto;
  @ApiProperty({ type: [TaxIdRecordDto] }) tax_ids: TaxIdRecordDto[];
  @ApiProperty({ example: { crm_id: '42' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: ['vip'], type: [String] }) labels: string[];
  @ApiProperty({ example: {} }) invoice_settings: Record<string, unknown>;
  @ApiProperty({ example: ['th-TH'], type: [String] }) preferred_locales: string[];
  @ApiProperty({ example: null, nullable: true, type: String, description: 'The test clock the customer lives on.' })
  test_clock: string | null;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) created_at: string;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) updated_at: string;
}
