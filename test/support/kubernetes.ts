import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as read from YAML. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  [key: string]: unknown;
}

export const MANIFESTS = join(process.cwd(), 'deploy/kubernetes');

export function parseManifests(text: string, source: string): K8sObject[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0].message}`);
    const obj = doc.toJS() as K8sObject | null;
    return obj ? [obj] : [];
  });
}

/** Every plain manifest file (not kustomization.yaml) under `dir`, for checks that need no kustomize. */
export function manifestFiles(dir = MANIFESTS): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f) && !/(^|\/)kustomization\.ya?ml$/.test(f))
    .map((f) => join(dir, f))
    .sort();
}

export function kubectlAvailable(): boolean {
  return spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
}

/**
 * The objects `kubectl kustomize deploy/kubernetes/overlays/<overlay>` renders: read from
 * $KUBERNETES_RENDERED_DIR/<overlay>.yaml when .ci/run rendered it, else rendered here.
 */
export function renderOverlay(overlay: string): K8sObject[] {
  const rendered = process.env.KUBERNETES_RENDERED_DIR && join(process.env.KUBERNETES_RENDERED_DIR, `${overlay}.yaml`);
  if (rendered && existsSync(rendered)) return parseManifests(readFileSync(rendered, 'utf8'), rendered);
  const text = execFileSync('kubectl', ['kustomize', join(MANIFESTS, 'overlays', overlay)], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return parseManifests(text, `overlays/${overlay}`);
}

/**
 * The objects of `overlay` with the optional `component` added (deploy/kubernetes/components/<name>),
 * as an operator adds it to the overlay's `components:`: rendered here through a kustomization in a
 * temporary directory that names both (relative paths: kustomize refuses absolute ones) and the
 * overlay's namespace.
 */
export function renderWithComponent(overlay: string, component: string, namespace: string): K8sObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
  try {
    const from = (path: string) => relative(dir, join(MANIFESTS, path));
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        `namespace: ${namespace}`,
        'resources:',
        `  - ${from(`overlays/${overlay}`)}`,
        'components:',
        `  - ${from(`components/${component}`)}`,
        '',
      ].join('\n'),
    );
    const text = execFileSync('kubectl', ['kustomize', '--load-restrictor', 'LoadRestrictionsNone', dir], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    return parseManifests(text, `overlays/${overlay} + components/${component}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Validating = new (data: unknown) => { validate(): void };

/**
 * Checks `obj` against the Kubernetes OpenAPI schema of its apiVersion and kind (kubernetes-models,
 * generated from Kubernetes 1.3x): an error message, or undefined when it is valid. A kind the
 * package does not know is an error, so nothing passes unchecked.
 */
export async function schemaError(obj: K8sObject): Promise<string | undefined> {
  const where = `${obj.kind}/${obj.metadata?.name}`;
  let model: Validating | undefined;
  try {
    const module = (await import(`kubernetes-models/${obj.apiVersion}/${obj.kind}`)) as Record<string, Validating>;
    model = module[obj.kind];
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' && !/Cannot find module/.test(String(error))) {
      throw error;
    }
  }
  if (!model) return `${where}: no schema for ${obj.apiVersion} ${obj.kind}`;
  try {
    new model(obj).validate();
    return undefined;
  } catch (error) {
    return `${where}: ${(error as Error).message}`;
  }
}

interface Container {
  name: string;
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
    seccompProfile?: { type?: string };
  };
}

interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type?: string } };
}

/** The pod template of a workload, with whether it runs for good (probes apply) or to completion. */
export function podSpecOf(obj: K8sObject): { pod: PodSpec; longRunning: boolean } | undefined {
  switch (obj.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
      return { pod: obj.spec.template.spec as PodSpec, longRunning: true };
    case 'Job':
      return { pod: obj.spec.template.spec as PodSpec, longRunning: false };
    case 'CronJob':
      return { pod: obj.spec.jobTemplate.spec.template.spec as PodSpec, longRunning: false };
    case 'Pod':
      return { pod: obj.spec as PodSpec, longRunning: true };
    default:
      return undefined;
  }
}

/**
 * The deployment policy: every container has CPU and memory requests and limits, runs as non-root
 * with a read-only root filesystem, no privilege escalation, all capabilities dropped and the
 * runtime's seccomp profile; every container of a long-running workload has liveness and
 * readiness probes. Returns one line per violation.
 */
export function policyViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  for (const obj of objects) {
    const workload = podSpecOf(obj);
    if (!workload) continue;
    const { pod, longRunning } = workload;
    const containers = [
      ...pod.containers.map((c) => ({ c, init: false })),
      ...(pod.initContainers ?? []).map((c) => ({ c, init: true })),
    ];
    for (const { c, init } of containers) {
      const at = `${obj.kind}/${obj.metadata.name} container ${c.name}`;
      const sc = c.securityContext ?? {};
      if (longRunning && !init) {
        if (!c.livenessProbe) violations.push(`${at}: no livenessProbe`);
        if (!c.readinessProbe) violations.push(`${at}: no readinessProbe`);
      }
      for (const kind of ['requests', 'limits'] as const) {
        for (const resource of ['cpu', 'memory']) {
          if (!c.resources?.[kind]?.[resource]) violations.push(`${at}: no resources.${kind}.${resource}`);
        }
      }
      if ((sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) !== true) violations.push(`${at}: not runAsNonRoot`);
      if (sc.readOnlyRootFilesystem !== true) violations.push(`${at}: root filesystem not read-only`);
      if (sc.allowPrivilegeEscalation !== false) violations.push(`${at}: allowPrivilegeEscalation not false`);
      if (!sc.capabilities?.drop?.includes('ALL')) violations.push(`${at}: capabilities not dropped (drop: [ALL])`);
      if ((sc.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type) !== 'RuntimeDefault') {
        violations.push(`${at}: seccompProfile not RuntimeDefault`);
      }
    }
  }
  return violations;
}
