import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationsService } from '../../modules/applications/index.js';
import { EventListenerService, newWebhookSecret, type Forwarded } from '../../modules/events/index.js';
import { type CliCommand, CliUsageError, required } from '../command.js';

const POLL_MS = 1_000;

const line = (f: Forwarded) => `${f.type} ${f.id} -> ${f.status_code ?? f.error}`;

export const eventCommands: Record<string, CliCommand> = {
  'events:listen': {
    usage: 'events:listen --app S --forward-to URL [--secret whsec_…] [--once --after EVENT_ID] [--json]',
    async run({ app, args, print, json }) {
      const slug = required(args, 'app');
      const url = required(args, 'forward-to');
      const application = await app.get(ApplicationsService).bySlug(slug);
      if (!application) throw new CliUsageError(`no application "${slug}"`);
      const secret = typeof args.secret === 'string' ? args.secret : newWebhookSecret();
      const listener = app.get(EventListenerService);
      // --once: forward what came after --after (or everything) and stop; for scripts and tests.
      if (args.once === true) {
        const after = typeof args.after === 'string' ? args.after : null;
        const sent = await listener.forward(application.id, after, url, secret);
        print({ secret, forwarded: sent }, [`signing secret: ${secret}`, ...sent.map(line)].join('\n'));
        return;
      }
      let after = await listener.newestId(application.id);
      if (!json)
        console.log(`Ready: forwarding ${slug}'s test-mode events to ${url}, signed with ${secret} (Ctrl-C to stop)`);
      for (;;) {
        const sent = await listener.forward(application.id, after, url, secret);
        for (const f of sent) print(f, line(f));
        if (sent.length > 0) after = sent[sent.length - 1].id;
        else await sleep(POLL_MS);
      }
    },
  },
};
