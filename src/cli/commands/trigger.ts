import type { Principal } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { ApplicationsService } from '../../modules/applications/index.js';
import {
  CardTokensService,
  CheckoutsService,
  PaymentIntentsService,
  ConfirmCheckoutService,
} from '../../modules/checkout/index.js';
import { type CliCommand, CliUsageError, required } from '../command.js';

/** What each triggerable event takes: a sandbox card that makes it happen. */
const CARDS: Record<string, string> = {
  'checkout.completed': '4242424242424242',
  'charge.succeeded': '4242424242424242',
  'payment_intent.succeeded': '4242424242424242',
  'charge.failed': '4000000000000002',
  'payment_intent.payment_failed': '4000000000000002',
  'charge.dispute.created': '4000000000000259',
};

const CURRENCY: Record<string, string> = { TH: 'THB', SG: 'SGD' };

export const triggerCommands: Record<string, CliCommand> = {
  'events:trigger': {
    usage: `events:trigger --type ${Object.keys(CARDS).join('|')} --app S [--country TH] [--json]`,
    /** In test mode, as the application's secret key would: a payment intent, its checkout, paid by a sandbox card. */
    async run({ app, args, print }) {
      const type = required(args, 'type');
      const card = CARDS[type];
      if (!card) throw new CliUsageError(`--type must be one of ${Object.keys(CARDS).join(', ')}`);
      const slug = required(args, 'app');
      const application = await app.get(ApplicationsService).bySlug(slug);
      if (!application) throw new CliUsageError(`no application "${slug}"`);
      const country = typeof args.country === 'string' ? args.country : application.countries[0];
      if (!application.countries.includes(country) || !CURRENCY[country]) {
        throw new CliUsageError(`--country must be one of the application's countries with collection`);
      }
      const principal: Principal = {
        credential: {
          applicationId: application.id,
          mode: 'test',
          privilege: 'machine',
          method: 'secret_key',
          subject: 'cli:events:trigger',
        },
        application,
        mode: 'test',
        livemode: false,
        country,
      };
      // Bound as the guard binds a request (services not yet taking the Principal read the context).
      const bound = { application, country, credential: principal.credential, principal };
      const paid = await app.get(RequestContext).runInMode(
        'test',
        async () => {
          const intent = await app
            .get(PaymentIntentsService)
            .create(principal, { amount: 10000, currency: CURRENCY[country], metadata: { triggered_by: 'cli' } });
          const checkout = await app
            .get(CheckoutsService)
            .create(principal, { target_type: 'payment_intent', target_id: intent.id });
          // The buyer pays on the hosted page, with the checkout's one-time session.
          const buyer: Principal = {
            ...principal,
            credential: {
              ...principal.credential,
              privilege: 'none',
              method: 'session',
              session: { purpose: 'checkout', targetId: checkout.id },
            },
          };
          // As the page does: the card goes to the test-mode vault, the payment gets the token.
          const token = await app
            .get(CardTokensService)
            .create(buyer, { number: card, exp_month: 12, exp_year: 2099, cvc: '123' });
          return app
            .get(ConfirmCheckoutService)
            .pay(buyer, checkout.id, { payment_method_type: 'card', token: token.id });
        },
        bound,
      );
      print(
        { checkout: paid.checkout.id, charge: paid.charge.id, charge_status: paid.charge.status },
        `checkout ${paid.checkout.id} paid: charge ${paid.charge.id} ${paid.charge.status}; see GET /events or events:listen`,
      );
    },
  },
};
