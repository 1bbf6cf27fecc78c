import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { keepConnectionsOpen } from '../src/common/http/keep-alive.js';
import { storeEventsParams, storeEventsSql } from '../src/modules/meter/store-events.sql.js';

/**
 * The bare baseline for `npm run bench:meter`: node:http and pg doing only the one INSERT of a
 * meter event, with no framework, validation, auth or outbox. Usage: baseline-server.js URL PORT.
 *
 * With `APP METER CUSTOMER` after the port it runs the service's own storage statement instead
 * (the event into wallet_test.meter_events with its outbox row, the same indexes), so the
 * benchmark can tell the framework's share of the cost from the schema's.
 */
const [url, port, app, meter, customer] = process.argv.slice(2);
const storeSql = storeEventsSql({ events: 'wallet_test.meter_events', outbox: 'wallet_test.meter_event_outbox' });
const pool = new pg.Pool({ connectionString: url, max: 10 });

await pool.query(`CREATE TABLE IF NOT EXISTS bench_baseline_events (
  id uuid PRIMARY KEY, identifier text NOT NULL UNIQUE, payload jsonb NOT NULL, created_at timestamptz NOT NULL)`);

function insert(id: string, identifier: string, payload: unknown): Promise<unknown> {
  if (app) {
    const now = new Date();
    return pool.query(
      storeSql,
      storeEventsParams([
        {
          id,
          applicationId: app,
          meterId: meter,
          eventName: 'api_call',
          customerId: customer,
          identifier,
          payload,
          value: '1',
          occurredAt: now,
          provider: 'sandbox',
          createdAt: now,
        },
      ]),
    );
  }
  return pool.query(
    'INSERT INTO bench_baseline_events (id, identifier, payload, created_at) VALUES ($1, $2, $3, now())',
    [id, identifier, JSON.stringify(payload)],
  );
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: { identifier?: string; payload?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const id = randomUUID();
    insert(id, body.identifier ?? id, body.payload ?? {}).then(
      () => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
      },
      () => {
        res.writeHead(500).end();
      },
    );
  });
});
// Idle keep-alive connections as the service keeps them (65 s), not Node's 5 s. With the default a
// request the open-loop client sends on a socket the server is just closing comes back ECONNRESET:
// the likely cause of the 1-3 resets the bare phase had in some runs, which the service cannot have.
keepConnectionsOpen(server, 65_000);
server.listen(Number(port), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
