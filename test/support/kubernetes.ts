import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
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

/** The CustomResourceDefinitions vendored from their operators' releases (test/fixtures/cloudnative-pg/README.md). */
const CRD_DIR = join(process.cwd(), 'test/fixtures/cloudnative-pg');

type Schema = Record<string, unknown>;

/**
 * `schema` as `kubectl apply` (strict field validation, the default) judges it: an object with
 * `properties` refuses any other field unless it says `x-kubernetes-preserve-unknown-fields`, so a
 * misspelt field is an error, not silently pruned.
 */
function strictFields(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictFields);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, strictFields(v)]));
  if (out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields']) {
    out.additionalProperties = false;
  }
  return out;
}

let crdValidators: Map<string, ValidateFunction> | undefined;

/**
 * The validator of `apiVersion` `kind` built from the vendored CRD's openAPIV3Schema (Ajv; formats
 * and the CRDs' CEL rules, x-kubernetes-validations, are not checked), or undefined for a kind no
 * vendored CRD defines.
 */
function crdValidator(apiVersion: string, kind: string): ValidateFunction | undefined {
  if (!crdValidators) {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    crdValidators = new Map();
    for (const file of readdirSync(CRD_DIR).filter((f) => f.endsWith('.yaml'))) {
      for (const crd of parseManifests(readFileSync(join(CRD_DIR, file), 'utf8'), file)) {
        const spec = crd.spec as {
          group: string;
          names: { kind: string };
          versions: Array<{ name: string; schema: { openAPIV3Schema: Schema } }>;
        };
        for (const version of spec.versions) {
          crdValidators.set(
            `${spec.group}/${version.name} ${spec.names.kind}`,
            ajv.compile(strictFields(version.schema.openAPIV3Schema) as Schema),
          );
        }
      }
    }
  }
  return crdValidators.get(`${apiVersion} ${kind}`);
}

/**
 * Checks `obj` against the Kubernetes OpenAPI schema of its apiVersion and kind (kubernetes-models,
 * generated from Kubernetes 1.3x), or against its vendored CustomResourceDefinition (CloudNativePG's
 * Cluster and ScheduledBackup, the Barman Cloud plugin's ObjectStore): an error message, or
 * undefined when it is valid. A kind neither knows is an error, so nothing passes unchecked.
 */
export async function schemaError(obj: K8sObject): Promise<string | undefined> {
  const where = `${obj.kind}/${obj.metadata?.name}`;
  const custom = crdValidator(obj.apiVersion, obj.kind);
  if (custom) {
    if (custom(obj)) return undefined;
    return `${where}: ${custom.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`;
  }
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
