import type { PromptPayDetails } from '../../../providers/ports/collection.port.js';
import { nextActionsOf } from './next-actions.js';

const promptpay: PromptPayDetails = {
  raw: '000201010212',
  image: 'data:image/png;base64,',
  ref1: null,
  ref2: null,
  ref3: null,
  expires_at: null,
};

describe('nextActionsOf', () => {
  it('sends a card waiting for 3-D Secure to the issuer page', () => {
    const actions = nextActionsOf(
      { status: 'pending', reference: 'chrg_1', authorizeUri: 'https://issuer.example/3ds' },
      'pm_1',
    );
    expect(actions).toEqual([
      {
        type: 'redirect_to_url',
        title: 'Authenticate the card',
        description: "Complete 3-D Secure on the card issuer's page.",
        i18n_key: 'next_action.redirect_to_url',
        url: 'https://issuer.example/3ds',
        client_secret: null,
        payment_method: 'pm_1',
        qr_data: null,
      },
    ]);
  });

  it('shows a pending PromptPay charge its QR code, even when the provider also names a page', () => {
    const actions = nextActionsOf(
      { status: 'pending', reference: 'chrg_2', promptpay, authorizeUri: 'https://provider.example/qr' },
      'pm_2',
    );
    expect(actions).toEqual([
      {
        type: 'promptpay_display_qr',
        title: 'Scan to pay with PromptPay',
        description: 'Scan the QR code with a Thai banking app before it expires.',
        i18n_key: 'next_action.promptpay_display_qr',
        url: null,
        client_secret: null,
        payment_method: 'pm_2',
        qr_data: '000201010212',
      },
    ]);
  });

  it('asks nothing of the payer for a pending charge without a page or a QR code', () => {
    expect(nextActionsOf({ status: 'pending', reference: 'chrg_3' }, 'pm_3')).toEqual([]);
  });
});
