import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadAppConfig } from '../../../src/config/app.config.js';
import { assertWebhookUrl } from '../../../src/modules/events/webhook-url.js';
import {
  type K8sObject,
  kubectlAvailable,
  MANIFESTS,
  manifestFiles,
  parseManifests,
  policyViolations,
  renderOverlay,
  renderWithComponent,
  schemaError,
} from '../../support/kubernetes.js';

const OVERLAYS = ['production', 'dev'] as const;

/**
 * Rendering needs kubectl (its built-in kustomize). In CI it must be there (.ci/run renders the
 * overlays itself first): a missing kubectl fails the run instead of skipping the checks. Outside
 * CI the rendered checks are skipped with a warning; the files and the policy are checked anyway.
 */
const canRender = Boolean(process.env.KUBERNETES_RENDERED_DIR) || kubectlAvailable();
if (!canRender && process.env.CI) {
  throw new Error(
    'kubectl is not installed, so deploy/kubernetes cannot be rendered: install kubectl (with kustomize built in)',
  );
}
if (!canRender) console.warn('kubectl is not installed: the rendered Kubernetes overlays are NOT checked');
const rendered = canRender ? describe : describe.skip;

/** One at a time: Jest's ESM loader can trip over concurrent first imports of one module. */
async function schemaErrors(objects: K8sObject[]): Promise<string[]> {
  const errors: string[] = [];
  for (const obj of objects) {
    const error = await schemaError(obj);
    if (error) errors.push(error);
  }
  return errors;
}

const byKindName = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name} rendered`);
  return found;
};

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

describe('Kubernetes manifests: files and policy', () => {
  it('every manifest file parses and validates against the Kubernetes schemas, and meets the policy', async () => {
    const files = manifestFiles();
    expect(files.map((f) => relative(MANIFESTS, f))).toEqual(
      expect.arrayContaining([
        'base/deployment-api.yaml',
        'base/deployment-worker.yaml',
        'base/migration-job.yaml',
        'overlays/dev/postgres.yaml',
      ]),
    );
    const objects = files.flatMap((f) => parseManifests(readFileSync(f, 'utf8'), f));
    expect(objects.length).toBeGreaterThanOrEqual(14);
    expect(await schemaErrors(objects)).toEqual([]);
    expect(policyViolations(objects)).toEqual([]);
  });

  it('the policy refuses a container without probes, resources, runAsNonRoot or a read-only root filesystem', async () => {
    const file = join(process.cwd(), 'test/fixtures/kubernetes/insecure.yaml');
    const objects = parseManifests(readFileSync(file, 'utf8'), file);
    // Schema-valid (Kubernetes' schemas let unknown fields such as the misspelt one through) ...
    expect(await schemaErrors(objects)).toEqual([]);
    // ... and refused by the policy, line by line.
    expect(policyViolations(objects)).toEqual([
      'Deployment/insecure container bare: no livenessProbe',
      'Deployment/insecure container bare: no readinessProbe',
      'Deployment/insecure container bare: no resources.requests.cpu',
      'Deployment/insecure container bare: no resources.requests.memory',
      'Deployment/insecure container bare: no resources.limits.cpu',
      'Deployment/insecure container bare: no resources.limits.memory',
      'Deployment/insecure container bare: not runAsNonRoot',
      'Deployment/insecure container bare: root filesystem not read-only',
      'Deployment/insecure container bare: allowPrivilegeEscalation not false',
      'Deployment/insecure container bare: capabilities not dropped (drop: [ALL])',
      'Deployment/insecure container bare: seccompProfile not RuntimeDefault',
      'Deployment/insecure container almost: no livenessProbe',
      'Deployment/insecure container almost: no resources.limits.memory',
      'Deployment/insecure container almost: root filesystem not read-only',
      'Job/runs-as-root container task: not runAsNonRoot',
    ]);
  });

  it('the schemas refuse a malformed object', async () => {
    const [deployment] = parseManifests(
      readFileSync(join(MANIFESTS, 'base/deployment-api.yaml'), 'utf8'),
      'deployment-api.yaml',
    );
    const broken = structuredClone(deployment);
    broken.spec.replicas = 'three';
    delete broken.spec.template.spec.containers[0].livenessProbe.httpGet.port;
    const error = await schemaError(broken);
    expect(error).toMatch(/^Deployment\/wallet-payments-api: /);
    expect(error).toMatch(/replicas must be integer|must have required property 'port'/);
    expect(await schemaError({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toBe(
      'Widget/w: no schema for example.com/v1 Widget',
    );
  });

  it('the vendored CloudNativePG schemas refuse a malformed Cluster, a misspelt field and a ScheduledBackup without its cluster', async () => {
    const [cluster, store, backup] = parseManifests(
      readFileSync(join(MANIFESTS, 'overlays/production/postgres-cluster.yaml'), 'utf8'),
      'postgres-cluster.yaml',
    );
    expect([cluster.kind, store.kind, backup.kind]).toEqual(['Cluster', 'ObjectStore', 'ScheduledBackup']);
    expect(await schemaErrors([cluster, store, backup])).toEqual([]);

    const broken = structuredClone(cluster);
    broken.spec.instances = 'three';
    broken.spec.postgresql.synchronous.method = 'some';
    expect(await schemaError(broken)).toMatch(/^Cluster\/wallet-db: .*\/spec\/instances must be integer/);
    expect(await schemaError(broken)).toMatch(
      /\/spec\/postgresql\/synchronous\/method must be equal to one of the allowed values/,
    );
    const misspelt = structuredClone(cluster);
    misspelt.spec.postgresql.synchronus = misspelt.spec.postgresql.synchronous;
    expect(await schemaError(misspelt)).toMatch(/\/spec\/postgresql must NOT have additional properties/);
    const orphan = structuredClone(backup);
    delete orphan.spec.cluster;
    expect(await schemaError(orphan)).toMatch(
      /^ScheduledBackup\/wallet-db-daily: .*must have required property 'cluster'/,
    );
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(process.cwd(), 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds on the Node 24 CI runs (exact tag, digest optional), with npm ci on the lock, and runs the compiled service as uid 10001', () => {
    const ciNode = /^NODE_VERSION=(\S+)$/m.exec(readFileSync(join(process.cwd(), '.ci/run'), 'utf8'))![1];
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})?$/m);
    expect(dockerfile).toContain(`ARG NODE_IMAGE=node:${ciNode}-bookworm-slim`);
    expect(stages.map((stage) => stage.split('\n')[0])).toEqual(['${NODE_IMAGE} AS build', '${NODE_IMAGE}']);
    const [build, runtime] = stages;
    expect(build).toMatch(/^RUN npm ci /m);
    expect(build).toMatch(/npm prune --omit=dev/);
    // The runtime stage neither installs nor compiles: it copies.
    expect(runtime).not.toMatch(/npm (ci|install|run)|tsc/);
    expect(runtime).toMatch(/^USER 10001:10001$/m);
    expect(runtime).toMatch(/^CMD \["node", "dist\/src\/main\.js"\]$/m);
    // The uid the manifests run as.
    const [api] = parseManifests(readFileSync(join(MANIFESTS, 'base/deployment-api.yaml'), 'utf8'), 'api');
    expect(api.spec.template.spec.securityContext.runAsUser).toBe(10001);
  });
});

rendered.each(OVERLAYS)('Kubernetes overlay %s, rendered', (overlay) => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = renderOverlay(overlay);
  });

  it('renders objects that all validate against the Kubernetes schemas and meet the policy', async () => {
    const kinds = new Set(objects.map((o) => o.kind));
    for (const kind of [
      'Namespace',
      'ServiceAccount',
      'ConfigMap',
      'Deployment',
      'Service',
      'Job',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
      'NetworkPolicy',
    ]) {
      expect(kinds).toContain(kind);
    }
    expect(await schemaErrors(objects)).toEqual([]);
    expect(policyViolations(objects)).toEqual([]);
    const namespace = overlay === 'production' ? 'wallet' : 'wallet-dev';
    for (const o of objects.filter((x) => x.kind !== 'Namespace'))
      expect([o.kind, o.metadata.namespace]).toEqual([o.kind, namespace]);
  });

  it('runs the API with RUN_JOBS=false and probes on /healthz and /readyz, the worker with RUN_JOBS=true, within the drain budget, trusting only the ingress CIDR', () => {
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('wallet-payments-config'))!;
    const data = config.data as Record<string, string>;
    expect(data).toMatchObject({ PORT: '3000', METRICS_PORT: '9464', MIGRATE_ON_BOOT: 'false' });
    // The ingress's CIDR, and nothing wider than a /16: a peer outside it cannot forge its address.
    const proxies = loadAppConfig({ TRUSTED_PROXIES: data.TRUSTED_PROXIES }).trustedProxies;
    expect(proxies.length).toBeGreaterThan(0);
    for (const cidr of proxies) expect(Number(cidr.split('/')[1])).toBeGreaterThanOrEqual(16);
    const drainSeconds = Number(data.SHUTDOWN_GRACE_MS) / 1000;
    expect(drainSeconds).toBe(25);

    for (const [name, runJobs] of [
      ['wallet-payments-api', 'false'],
      ['wallet-payments-worker', 'true'],
    ] as const) {
      const deployment = byKindName(objects, 'Deployment', name);
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      expect(container.image).toMatch(/(^|\/)wallet-payments-service:[\w.-]+$/);
      const env = container.env as EnvVar[];
      expect(env.find((e) => e.name === 'RUN_JOBS')?.value).toBe(runJobs);
      // Production: the -rw Service's URI in the Secret CloudNativePG makes; dev: the generated Secret.
      expect(env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual(
        overlay === 'production'
          ? { name: 'wallet-db-app', key: 'uri' }
          : { name: 'wallet-payments-secrets', key: 'DATABASE_URL' },
      );
      expect(container.envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }]);
      expect(container.livenessProbe.httpGet.path).toBe('/healthz');
      expect(container.readinessProbe.httpGet.path).toBe('/readyz');
      expect(container.startupProbe.httpGet.path).toBe('/healthz');
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
      expect(container.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
      const preStop = (container.lifecycle?.preStop?.sleep?.seconds as number | undefined) ?? 0;
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drainSeconds + preStop);
      expect(deployment.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': 'wallet-payments-service',
        'app.kubernetes.io/part-of': 'wallet',
      });
    }
    expect(
      byKindName(objects, 'Deployment', 'wallet-payments-api').spec.template.spec.topologySpreadConstraints,
    ).toHaveLength(2);
  });

  it("keeps /metrics off the partners' Service: it carries the API port only; a separate Service carries 9464", () => {
    const api = byKindName(objects, 'Service', 'wallet-payments');
    expect(api.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
    expect(api.spec.selector).toEqual({
      'app.kubernetes.io/name': 'wallet-payments-service',
      'app.kubernetes.io/component': 'api',
    });
    expect(api.metadata.annotations?.['prometheus.io/scrape']).toBeUndefined();
    const container = byKindName(objects, 'Deployment', 'wallet-payments-api').spec.template.spec.containers[0];
    expect(container.ports).toEqual([
      { name: 'http', containerPort: 3000 },
      { name: 'metrics', containerPort: 9464 },
    ]);
    const metrics = byKindName(objects, 'Service', 'wallet-payments-metrics');
    expect(metrics.spec.ports).toEqual([{ name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' }]);
  });

  it('runs migrations in a Job with the CLI, and limits the network to the API port in and the databases, DNS, HTTPS and HTTP out', async () => {
    const job = byKindName(objects, 'Job', 'wallet-payments-migrate');
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', 'dist/src/cli/main.js', 'migrations:run']);
    expect(job.metadata.annotations?.['wallet.payments/run-before-rollout']).toBe('true');

    const policy = byKindName(objects, 'NetworkPolicy', 'wallet-payments');
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const ingress = policy.spec.ingress as Array<{ from?: unknown[]; ports: Array<{ port: string | number }> }>;
    expect(ingress.filter((r) => !r.from).flatMap((r) => r.ports.map((p) => p.port))).toEqual(['http']);
    expect(ingress.filter((r) => r.from).flatMap((r) => r.ports.map((p) => p.port))).toEqual(['metrics']);
    const egress = policy.spec.egress as Array<{ to?: unknown[]; ports: Array<{ port: number }> }>;
    expect([...new Set(egress.flatMap((r) => r.ports.map((p) => p.port)))].sort((a, b) => a - b)).toEqual([
      53, 80, 443, 5432, 6379,
    ]);
    // The webhook ports the API accepts where only public targets are allowed (E5110 refuses others).
    for (const url of ['https://hooks.example.com/in', 'http://hooks.example.com/in']) {
      const port = Number(new URL(url).port || (url.startsWith('https') ? 443 : 80));
      expect(egress.some((r) => !r.to && r.ports.some((p) => p.port === port))).toBe(true);
    }
    await expect(assertWebhookUrl('https://93.184.215.14:8443/in', 'live', 'public')).rejects.toThrow(/port 8443/);

    const hpa = byKindName(objects, 'HorizontalPodAutoscaler', 'wallet-payments-api');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    // The HPA owns the API's replica count: a `replicas` in the Deployment would reset it on every apply.
    expect(byKindName(objects, 'Deployment', 'wallet-payments-api').spec).not.toHaveProperty('replicas');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'wallet-payments-api' });
    const pdb = byKindName(objects, 'PodDisruptionBudget', 'wallet-payments-api');
    expect(pdb.spec.selector.matchLabels['app.kubernetes.io/component']).toBe('api');
  });

  if (overlay === 'production') {
    it('commits no Secret: DATABASE_URL comes from the one CloudNativePG makes, REDIS_URL from the operator', () => {
      expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
      expect(objects.some((o) => o.kind === 'StatefulSet')).toBe(false);
    });

    it('runs PostgreSQL with CloudNativePG: 3 instances on 3 nodes, a synchronous standby required, WAL and daily base backups to an object store', () => {
      const cluster = byKindName(objects, 'Cluster', 'wallet-db');
      expect(cluster.apiVersion).toBe('postgresql.cnpg.io/v1');
      expect(cluster.metadata.namespace).toBe('wallet');
      expect(cluster.spec.instances).toBe(3);
      expect(cluster.spec.imageName).toMatch(/^ghcr\.io\/cloudnative-pg\/postgresql:\d+\.\d+/);
      // An acknowledged commit is on a standby too: the operator sets synchronous_standby_names to
      // ANY 1 (the other instances), and refuses to drop it when no standby is left (required).
      expect(cluster.spec.postgresql.synchronous).toEqual({ method: 'any', number: 1, dataDurability: 'required' });
      expect(cluster.spec.postgresql.parameters.synchronous_commit).toBe('on');
      expect(cluster.spec.affinity).toMatchObject({ enablePodAntiAffinity: true, podAntiAffinityType: 'required' });
      expect(cluster.spec.bootstrap.initdb).toEqual({ database: 'wallet', owner: 'wallet' });
      // 12 API pods with 5 DataSources and 2 workers with 3, DB_POOL_SIZE each, fit in max_connections.
      const config = objects.find(
        (o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('wallet-payments-config'),
      )!;
      const pool = Number((config.data as Record<string, string>).DB_POOL_SIZE);
      const maxApi = byKindName(objects, 'HorizontalPodAutoscaler', 'wallet-payments-api').spec.maxReplicas as number;
      const workers = byKindName(objects, 'Deployment', 'wallet-payments-worker').spec.replicas as number;
      const needed = maxApi * (5 * pool + 1) + workers * (3 * pool + 1) + 3 * pool + 10;
      expect(Number(cluster.spec.postgresql.parameters.max_connections)).toBeGreaterThanOrEqual(needed);

      // WAL archiving through the Barman Cloud plugin to the ObjectStore, base backups daily.
      expect(cluster.spec.plugins).toEqual([
        {
          name: 'barman-cloud.cloudnative-pg.io',
          isWALArchiver: true,
          parameters: { barmanObjectName: 'wallet-db-backups' },
        },
      ]);
      const store = byKindName(objects, 'ObjectStore', 'wallet-db-backups');
      expect(store.spec.configuration.destinationPath).toMatch(/^s3:\/\//);
      expect(store.spec.configuration.s3Credentials.accessKeyId.name).toBe('wallet-db-backup-credentials');
      const backup = byKindName(objects, 'ScheduledBackup', 'wallet-db-daily');
      expect(backup.spec).toMatchObject({
        cluster: { name: 'wallet-db' },
        method: 'plugin',
        pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' },
      });
      expect(backup.spec.schedule.split(' ')).toHaveLength(6);

      // The API reads lists that tolerate lag from the standbys; the worker and the Job only the primary.
      const envOf = (kind: string, name: string) =>
        byKindName(objects, kind, name).spec.template.spec.containers[0].env as EnvVar[];
      const api = envOf('Deployment', 'wallet-payments-api');
      const names = api.map((e) => e.name);
      expect(api.find((e) => e.name === 'DATABASE_READ_URL')?.value).toBe(
        'postgresql://$(DB_USERNAME):$(DB_PASSWORD)@wallet-db-ro:5432/wallet',
      );
      // Kubernetes expands $(VAR) only from variables defined before.
      expect(names.indexOf('DB_USERNAME')).toBeLessThan(names.indexOf('DATABASE_READ_URL'));
      expect(names.indexOf('DB_PASSWORD')).toBeLessThan(names.indexOf('DATABASE_READ_URL'));
      for (const env of [envOf('Deployment', 'wallet-payments-worker'), envOf('Job', 'wallet-payments-migrate')]) {
        expect(env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
          name: 'wallet-db-app',
          key: 'uri',
        });
        expect(env.some((e) => e.name === 'DATABASE_READ_URL')).toBe(false);
      }
      // The NetworkPolicy lets the service's pods reach PostgreSQL's port on the cluster's instances.
      const egress = byKindName(objects, 'NetworkPolicy', 'wallet-payments').spec.egress as Array<{
        to?: unknown[];
        ports: Array<{ port: number }>;
      }>;
      expect(egress.some((r) => !r.to && r.ports.some((p) => p.port === 5432))).toBe(true);
    });
  } else {
    it('brings its own PostgreSQL (StatefulSet) and Redis, and a Secret pointing at them', () => {
      expect(byKindName(objects, 'StatefulSet', 'wallet-postgres').spec.template.spec.containers[0].ports).toEqual([
        { name: 'postgres', containerPort: 5432 },
      ]);
      byKindName(objects, 'Deployment', 'wallet-redis');
      const secret = byKindName(objects, 'Secret', 'wallet-payments-secrets');
      const data = secret.data as Record<string, string>;
      expect(Buffer.from(data.DATABASE_URL, 'base64').toString()).toBe(
        'postgresql://postgres@wallet-postgres:5432/wallet',
      );
      expect(Buffer.from(data.REDIS_URL, 'base64').toString()).toBe('redis://wallet-redis:6379');
    });
  }
});

// kubectl renders it here (the CI machine has it: .ci/run renders the overlays with it first).
(kubectlAvailable() ? describe : describe.skip)('Kubernetes component tracing, on the production overlay', () => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = renderWithComponent('production', 'tracing', 'wallet');
  });

  it('adds an OpenTelemetry Collector that validates and meets the policy, points the service at it and lets only its pods reach it', async () => {
    expect(await schemaErrors(objects)).toEqual([]);
    expect(policyViolations(objects)).toEqual([]);
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('wallet-payments-config'))!;
    expect(config.data).toMatchObject({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' });
    const service = byKindName(objects, 'Service', 'otel-collector');
    expect(service.metadata.namespace).toBe('wallet');
    expect(service.spec.ports).toEqual([{ name: 'otlp-http', port: 4318, targetPort: 'otlp-http' }]);
    const collector = byKindName(objects, 'Deployment', 'otel-collector');
    expect(collector.spec.template.spec.containers[0].image).toMatch(
      /^otel\/opentelemetry-collector-contrib:\d+\.\d+\.\d+$/,
    );
    const policy = byKindName(objects, 'NetworkPolicy', 'wallet-payments');
    expect(policy.spec.egress).toContainEqual({
      to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'otel-collector' } } }],
      ports: [{ port: 4318, protocol: 'TCP' }],
    });
    // The collector's own configuration: OTLP/HTTP in on the port the service sends to, traces out.
    const conf = byKindName(objects, 'ConfigMap', 'otel-collector').data as Record<string, string>;
    expect(conf['config.yaml']).toMatch(/endpoint: 0\.0\.0\.0:4318/);
    expect(conf['config.yaml']).toMatch(/traces:\n\s+receivers: \[otlp\]/);
  });
});
