import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * A charge records the payment method type it was made with (the registry's type,
 * src/providers/ports/payment-method-types.ts): its outcome, refund rules and fee follow the type,
 * not the columns a type happens to fill. Existing charges take their payment method's type.
 */
export class ChargePaymentMethodType1764502500000 implements MigrationInterface {
  name = 'ChargePaymentMethodType1764502500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.charges ADD COLUMN payment_method_type text NULL`,
      `UPDATE ${s}.charges c SET payment_method_type = pm.type
         FROM ${s}.payment_methods pm
        WHERE pm.application_id = c.application_id AND pm.id = c.payment_method_id`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`ALTER TABLE ${s}.charges DROP COLUMN payment_method_type`]);
  }
}
