/**
 * TEST DOUBLE — a fake Kubernetes API server, NOT Kubernetes. No kube-apiserver can run on the
 * machines this project is tested on, so the Kubernetes driver's tests talk to this instead.
 *
 * What it does: serves the paths `@kubernetes/client-node` calls for what the driver uses — server-side
 * apply (PATCH `application/apply-patch+yaml`), get, list by label selector (also as metadata only,
 * `PartialObjectMetadataList`), delete and status of StatefulSets, Jobs, Pods, Services, Secrets and
 * PersistentVolumeClaims in one namespace, Nodes, pod logs (`tailLines`, `previous`) and pod exec over
 * WebSockets (`v5.channel.k8s.io`).
 * Every applied object is validated against the Kubernetes OpenAPI schema (the `kubernetes-models`
 * package) and answered 422 like the real server when it does not fit. Its "kubelet" runs the pod of
 * each StatefulSet with replicas 1 and of each Job as real containers on a Docker engine — init
 * containers in order, then the container; image pulled from its registry when missing; command, env
 * from Secrets and the downward API (`fieldRef` to the pod's metadata), the Secret's files, PVCs (whole
 * or a subPath, made when missing as the kubelet does: a ReadWriteMany claim shared by pods, such as
 * K8S_STORAGE_CLAIM's 文件存储, is one directory every pod's sub-path mount binds into; `claimDirectory`
 * tells a test where it is, to put files there as the shared filesystem would) and emptyDirs as volumes, CPU and memory limits, the termination message — a Job's pod
 * ending Succeeded or Failed, a suspended Job's pod removed. A StatefulSet's pod (restartPolicy Always)
 * restarts its container as the kubelet does (not its init containers): the first exit at once, later
 * ones after a back-off of 10 s doubling to 5 min (CrashLoopBackOff meanwhile), with restartCount,
 * lastState and the previous container's log kept. Its "kube-proxy" listens on every NodePort and relays to the pod's container, so SSH, exec,
 * stop, data kept across pods and images saved and pulled are real.
 *
 * Its limits: one namespace; no admission, RBAC, watches, quotas, resourceVersion conflicts or
 * strategic merge; apply replaces an object's spec with the one its first field manager applies (right
 * for the driver's single manager) and lays another manager's apply over it; status is kept; label
 * selectors of `key=value` and `key` only; GPUs are counted against a node's allocatable
 * `nvidia.com/gpu` but no device is attached, and a CPU limit beyond the engine's cores is clamped to
 * them; one volume per PVC on one engine, its size not enforced (expansion just updates the capacity);
 * every node is this machine (address 127.0.0.1), and the engine must be local too (subPaths and
 * termination messages are files of this machine). kaniko's executor image cannot be pulled here, so
 * a container running it is carried out by the engine (runBuilder: the same Dockerfile and context
 * built and pushed).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTcpServer, connect, type Server as TcpServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import * as tar from 'tar-stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { KubeConfig } from '@kubernetes/client-node';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';

type Json = Record<string, unknown>;
interface ContainerSpec {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: Json[];
  resources?: { limits?: Record<string, string> };
  volumeMounts?: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
  readinessProbe?: { tcpSocket?: { port: number } };
  terminationMessagePath?: string;
}
interface PodSpec {
  nodeSelector?: Record<string, string>;
  nodeName?: string;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  initContainers?: ContainerSpec[];
  containers: ContainerSpec[];
  volumes?: Json[];
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: PodSpec;
}

/** kaniko's executor, which the fake's kubelet stands in for (runBuilder). */
const isBuilder = (container: ContainerSpec) => /kaniko-project\/executor|\/kaniko:|kaniko-executor/.test(container.image);

function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = connect({ host, port, timeout: 500 }, () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
    probe.on('timeout', () => {
      probe.destroy();
      resolve(false);
    });
  });
}

/** Server-side apply by a second field manager: what it applies is laid over the object (objects merge, the rest is replaced). */
function overlay(base: unknown, applied: unknown): unknown {
  if (typeof base !== 'object' || base === null || Array.isArray(base) || typeof applied !== 'object' || applied === null || Array.isArray(applied)) return applied;
  const merged: Json = { ...(base as Json) };
  for (const [key, value] of Object.entries(applied as Json)) merged[key] = overlay(merged[key], value);
  return merged;
}
/** A stored object: what was applied plus what the server keeps (metadata, status). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; uid?: string; resourceVersion?: string; creationTimestamp?: string; deletionTimestamp?: string; generation?: number } & Json;
  spec?: Json;
  status?: Json;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
}

const RESOURCES = {
  statefulsets: { apiVersion: 'apps/v1', kind: 'StatefulSet', model: StatefulSet },
  services: { apiVersion: 'v1', kind: 'Service', model: Service },
  secrets: { apiVersion: 'v1', kind: 'Secret', model: Secret },
  persistentvolumeclaims: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', model: PersistentVolumeClaim },
  jobs: { apiVersion: 'batch/v1', kind: 'Job', model: Job },
  pods: { apiVersion: 'v1', kind: 'Pod', model: undefined },
} as const;
type Resource = keyof typeof RESOURCES | 'nodes';

export interface FakeNode {
  name: string;
  labels: Record<string, string>;
  allocatable: { cpu: string; memory: string; gpus: number };
  /** Ready=True, Ready=False, or Unknown (the kubelet stopped reporting). */
  ready: 'True' | 'False' | 'Unknown';
}

export interface FakeApiServerOptions {
  /** The engine the kubelet runs pods on (not needed without a kubelet). */
  docker?: Docker;
  namespace: string;
  nodes: FakeNode[];
  /** The StorageClass's `allowVolumeExpansion`. */
  allowVolumeExpansion: boolean;
  /** NodePorts are allocated from here (the real default is 30000-32767). */
  nodePorts: { min: number; max: number };
  /** false: no kubelet (objects only, for tests of the API alone); the default runs pods on `docker`. */
  kubelet?: boolean;
}

class HttpFailure extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

function status(code: number, reason: string, message: string): Json {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/** `key=value` and `key` terms, comma-separated. */
function matchesSelector(labels: Record<string, string> | undefined, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key = '', value] = term.split('=');
    return value === undefined ? labels?.[key.trim()] !== undefined : labels?.[key.trim()] === value.trim();
  });
}

const podContainerName = (namespace: string, pod: string) => `k8s-${namespace}-${pod}`;
const claimVolumeName = (namespace: string, claim: string) => `k8s-${namespace}-${claim}`;
const LABEL_POD = 'io.kubernetes.pod.name';
const LABEL_FAKE = 'slg.io/fake-kubelet';

function quantityToNumber(quantity: unknown): number {
  const text = String(quantity ?? '0');
  const match = /^([0-9.]+)(m|Ki|Mi|Gi|Ti)?$/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  const unit = match[2];
  return unit === 'm' ? value / 1000 : unit === 'Ki' ? value * 1024 : unit === 'Mi' ? value * 1024 ** 2 : unit === 'Gi' ? value * 1024 ** 3 : unit === 'Ti' ? value * 1024 ** 4 : value;
}

export class FakeKubeApiServer {
  /** Every request, for tests that count calls (`GET /apis/apps/v1/namespaces/ns/statefulsets?…`). */
  readonly requests: { method: string; path: string }[] = [];
  private readonly objects = new Map<string, KubeObject>();
  private readonly nodes: FakeNode[];
  private server: Server | undefined;
  private readonly sockets = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('v5.channel.k8s.io') ? 'v5.channel.k8s.io' : false) });
  private readonly proxies = new Map<number, { server: TcpServer; service: string; targetPort: number }>();
  private readonly kubelet: NodeJS.Timeout;
  private pass: Promise<void> = Promise.resolve();
  private passQueued = false;
  /** Why the kubelet's last pass failed (it tries again at the next), for a test's failure message. */
  lastSyncError: string | undefined;
  /** Pods whose container is being made or removed (not twice at once). */
  private readonly busy = new Set<string>();
  /** The field manager that made each object; another one's apply is laid over it (overlay). */
  private readonly managers = new Map<string, string>();
  /** Images the kubelet pulled (saved images from the registry): removed from the engine at close. */
  private readonly pulled = new Set<string>();
  /** kaniko builds the kubelet runs for a pod (runBuilder): running, or how it ended. */
  private readonly builds = new Map<string, 'running' | { error: string | null }>();

  constructor(private readonly options: FakeApiServerOptions) {
    this.nodes = options.nodes.map((node) => ({ ...node }));
    this.kubelet = setInterval(() => options.kubelet !== false && this.sync(), 300);
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(request, socket, head));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  /** A KubeConfig that points at this server (what KUBECONFIG would give). */
  kubeConfig(url: string): KubeConfig {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'fake', server: url, skipTLSVerify: true }],
      users: [{ name: 'fake', token: 'fake' }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'fake', namespace: this.options.namespace }],
      currentContext: 'fake',
    });
    return config;
  }

  /** Makes a node stop reporting (Ready=Unknown) or report again. */
  setNodeReady(name: string, ready: FakeNode['ready']): void {
    const node = this.nodes.find((candidate) => candidate.name === name);
    if (node) node.ready = ready;
  }

  /** Everything stored of a kind (for tests' assertions). */
  stored(resource: keyof typeof RESOURCES): KubeObject[] {
    return [...this.objects.values()].filter((object) => object.kind === RESOURCES[resource].kind);
  }

  private get docker(): Docker {
    if (!this.options.docker) throw new Error('this fake runs no kubelet: no Docker engine was given');
    return this.options.docker;
  }

  /** Where a claim's files are on this machine (its volume's mount point, made when missing): what pods mounting it, whole or a sub-path, see. */
  async claimDirectory(claim: string): Promise<string> {
    return this.volumeDirectory(claimVolumeName(this.options.namespace, claim), { [LABEL_FAKE]: this.options.namespace });
  }

  /** Stores objects as they are (a pod with its status, say), for tests of the API alone. */
  put(...objects: KubeObject[]): void {
    for (const object of objects) {
      const resource = (Object.keys(RESOURCES) as (keyof typeof RESOURCES)[]).find((candidate) => RESOURCES[candidate].kind === object.kind);
      if (!resource) throw new Error(`no resource for ${object.kind}`);
      this.objects.set(`${resource}/${this.options.namespace}/${object.metadata.name}`, { ...object, metadata: { ...object.metadata, namespace: this.options.namespace } });
    }
  }

  async close(): Promise<void> {
    clearInterval(this.kubelet);
    await this.pass;
    for (const proxy of this.proxies.values()) proxy.server.close();
    this.proxies.clear();
    this.sockets.close();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    if (!this.options.docker) return;
    const leftovers = await this.docker.listContainers({ all: true, filters: { label: [`${LABEL_FAKE}=${this.options.namespace}`] } });
    await Promise.all(leftovers.map((item) => this.docker.getContainer(item.Id).remove({ force: true }).catch(() => undefined)));
    const volumes = (await this.docker.listVolumes({ filters: { label: [`${LABEL_FAKE}=${this.options.namespace}`] } })).Volumes ?? [];
    await Promise.all(volumes.map((volume) => this.docker.getVolume(volume.Name).remove().catch(() => undefined)));
    await rm(join(tmpdir(), `slg-fake-kubelet-${this.options.namespace}`), { recursive: true, force: true });
    for (const image of this.pulled) await this.docker.getImage(image).remove({ force: true }).catch(() => undefined);
  }

  // ---- HTTP ------------------------------------------------------------------------------------

  private route(path: string): { resource: Resource; namespace?: string; name?: string; sub?: string } {
    const parts = path.split('/').filter((part) => part !== '');
    // /api/v1/nodes[/name] · /api/v1/namespaces/ns/<resource>[/name[/sub]] · /apis/apps/v1/namespaces/ns/statefulsets[/name]
    const group = parts[0] === 'apis' ? `${parts[1] ?? ''}/${parts[2] ?? ''}` : 'v1';
    const rest = parts[0] === 'api' && parts[1] === 'v1' ? parts.slice(2) : parts[0] === 'apis' && (group === 'apps/v1' || group === 'batch/v1') ? parts.slice(3) : null;
    if (!rest) throw new HttpFailure(404, 'NotFound', `the server could not find the requested resource (${path})`);
    if (rest[0] === 'nodes') return { resource: 'nodes', name: rest[1] };
    if (rest[0] !== 'namespaces' || !rest[1] || !rest[2]) throw new HttpFailure(404, 'NotFound', `the server could not find the requested resource (${path})`);
    const resource = rest[2] as Resource;
    if (!(resource in RESOURCES)) throw new HttpFailure(404, 'NotFound', `the server could not find the requested resource (${resource})`);
    const apiVersion = RESOURCES[resource as keyof typeof RESOURCES].apiVersion;
    if (apiVersion !== group) throw new HttpFailure(404, 'NotFound', `${resource} is not served under ${parts.slice(0, 3).join('/')}`);
    if (rest[1] !== this.options.namespace) throw new HttpFailure(403, 'Forbidden', `namespace "${rest[1]}" is not the one this fake serves`);
    return { resource, namespace: rest[1], name: rest[3], sub: rest[4] };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    this.requests.push({ method: request.method ?? 'GET', path: `${url.pathname}${url.search}` });
    const send = (code: number, body: unknown) => {
      response.writeHead(code, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    try {
      const body = await new Promise<string>((resolve, reject) => {
        let text = '';
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => (text += chunk));
        request.on('end', () => resolve(text));
        request.on('error', reject);
      });
      // API discovery: client-node's KubernetesObjectApi learns each kind's plural here.
      if (request.method === 'GET' && (url.pathname === '/api/v1' || url.pathname === '/apis/apps/v1' || url.pathname === '/apis/batch/v1')) {
        const groupVersion = url.pathname === '/api/v1' ? 'v1' : url.pathname.slice('/apis/'.length);
        const resources: { name: string; singularName: string; namespaced: boolean; kind: string; verbs: string[] }[] = Object.entries(RESOURCES)
          .filter(([, meta]) => meta.apiVersion === groupVersion)
          .map(([plural, meta]) => ({ name: plural, singularName: meta.kind.toLowerCase(), namespaced: true, kind: meta.kind, verbs: ['get', 'list', 'patch', 'delete'] }));
        if (groupVersion === 'v1') resources.push({ name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ['get', 'list'] });
        return send(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources });
      }
      const target = this.route(url.pathname);
      if (target.resource === 'nodes') {
        if (request.method !== 'GET') throw new HttpFailure(405, 'MethodNotAllowed', 'nodes are read-only here');
        const nodes = this.nodes.map((node) => this.nodeObject(node));
        if (target.name) {
          const node = nodes.find((candidate) => candidate.metadata.name === target.name);
          if (!node) throw new HttpFailure(404, 'NotFound', `nodes "${target.name}" not found`);
          return send(200, node);
        }
        return send(200, { apiVersion: 'v1', kind: 'NodeList', metadata: {}, items: nodes.filter((node) => matchesSelector(node.metadata.labels, url.searchParams.get('labelSelector'))) });
      }
      const resource = target.resource;
      const key = (name: string) => `${resource}/${target.namespace}/${name}`;
      switch (request.method) {
        case 'GET': {
          if (resource === 'pods' && target.name && target.sub === 'log') {
            const text = await this.podLog(target.name, url.searchParams);
            response.writeHead(200, { 'content-type': 'text/plain' });
            return void response.end(text);
          }
          if (target.name) {
            const object = this.objects.get(key(target.name));
            if (!object) throw new HttpFailure(404, 'NotFound', `${resource}.${RESOURCES[resource].apiVersion.split('/')[0]} "${target.name}" not found`);
            return send(200, object);
          }
          const items = this.stored(resource).filter((object) => matchesSelector(object.metadata.labels, url.searchParams.get('labelSelector')));
          if (/as=PartialObjectMetadataList/.test(request.headers.accept ?? '')) {
            const metadataItems = items.map((object) => ({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: object.metadata }));
            return send(200, { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList', metadata: { resourceVersion: String(Date.now()) }, items: metadataItems });
          }
          return send(200, { apiVersion: RESOURCES[resource].apiVersion, kind: `${RESOURCES[resource].kind}List`, metadata: { resourceVersion: String(Date.now()) }, items });
        }
        case 'PATCH': {
          if (!target.name) throw new HttpFailure(405, 'MethodNotAllowed', 'PATCH needs a name');
          if (request.headers['content-type'] !== 'application/apply-patch+yaml') throw new HttpFailure(415, 'UnsupportedMediaType', `this fake takes server-side apply only, not ${request.headers['content-type']}`);
          if (!url.searchParams.get('fieldManager')) throw new HttpFailure(422, 'Invalid', 'fieldManager is required for apply requests');
          return send(200, this.apply(resource, target.namespace ?? '', target.name, JSON.parse(body) as KubeObject, url.searchParams.get('fieldManager') ?? ''));
        }
        case 'DELETE': {
          if (!target.name) throw new HttpFailure(405, 'MethodNotAllowed', 'DELETE needs a name');
          const object = this.objects.get(key(target.name));
          if (!object) throw new HttpFailure(404, 'NotFound', `${resource} "${target.name}" not found`);
          this.remove(resource, key(target.name), object);
          this.wake();
          return send(200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: target.name, kind: resource } });
        }
        default:
          throw new HttpFailure(405, 'MethodNotAllowed', `${request.method ?? ''} is not served by this fake`);
      }
    } catch (error) {
      if (error instanceof HttpFailure) return send(error.code, status(error.code, error.reason, error.message));
      send(500, status(500, 'InternalError', String(error)));
    }
  }

  private nodeObject(node: FakeNode): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: node.name, labels: { 'kubernetes.io/hostname': node.name, ...node.labels } },
      spec: {},
      status: {
        allocatable: { cpu: node.allocatable.cpu, memory: node.allocatable.memory, 'nvidia.com/gpu': String(node.allocatable.gpus) },
        capacity: { cpu: node.allocatable.cpu, memory: node.allocatable.memory, 'nvidia.com/gpu': String(node.allocatable.gpus) },
        conditions: [{ type: 'Ready', status: node.ready, reason: node.ready === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletReady', lastTransitionTime: new Date().toISOString() }],
        addresses: [
          { type: 'InternalIP', address: '127.0.0.1' },
          { type: 'Hostname', address: node.name },
        ],
      },
    };
  }

  private apply(resource: Resource, namespace: string, name: string, patch: KubeObject, fieldManager: string): KubeObject {
    if (resource === 'nodes' || resource === 'pods') throw new HttpFailure(405, 'MethodNotAllowed', `${resource} are not applied here`);
    const meta = RESOURCES[resource];
    const key = `${resource}/${namespace}/${name}`;
    const existing = this.objects.get(key);
    const manager = this.managers.get(key);
    const applied = existing && manager !== undefined && manager !== fieldManager ? (overlay({ apiVersion: existing.apiVersion, kind: existing.kind, metadata: { name, labels: existing.metadata.labels }, spec: existing.spec }, patch) as KubeObject) : patch;
    if (applied.apiVersion !== meta.apiVersion || applied.kind !== meta.kind) throw new HttpFailure(400, 'BadRequest', `the body is a ${applied.apiVersion}/${applied.kind}, not a ${meta.apiVersion}/${meta.kind}`);
    if (applied.metadata?.name !== name) throw new HttpFailure(400, 'BadRequest', `the name of the object (${applied.metadata?.name}) does not match the name on the URL (${name})`);
    if (applied.metadata.namespace && applied.metadata.namespace !== namespace) throw new HttpFailure(400, 'BadRequest', 'the namespace of the object does not match the namespace on the URL');
    try {
      new meta.model(applied as never).validate();
    } catch (error) {
      throw new HttpFailure(422, 'Invalid', `${meta.kind}.${meta.apiVersion} "${name}" is invalid: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (existing?.metadata.deletionTimestamp) throw new HttpFailure(409, 'Conflict', `${meta.kind} "${name}" is being deleted`);
    const next: KubeObject = {
      ...applied,
      metadata: {
        ...applied.metadata,
        namespace,
        uid: existing?.metadata.uid ?? randomUUID(),
        creationTimestamp: existing?.metadata.creationTimestamp ?? new Date().toISOString(),
        resourceVersion: String(Date.now()),
        generation: (existing?.metadata.generation ?? 0) + (JSON.stringify(existing?.spec) === JSON.stringify(applied.spec) ? 0 : 1),
      },
      ...(existing?.status ? { status: existing.status } : {}),
    };
    if (resource === 'statefulsets' && existing) this.checkStatefulSetUpdate(existing, next);
    if (resource === 'persistentvolumeclaims') this.applyClaim(existing, next);
    if (resource === 'services') this.allocateNodePorts(existing, next);
    if (resource === 'secrets') {
      const data = { ...(next.data ?? {}) };
      for (const [field, value] of Object.entries(next.stringData ?? {})) data[field] = Buffer.from(value).toString('base64');
      next.data = data;
      delete next.stringData;
    }
    this.objects.set(key, next);
    if (!existing) this.managers.set(key, fieldManager);
    this.wake();
    return next;
  }

  private checkStatefulSetUpdate(existing: KubeObject, next: KubeObject): void {
    const frozen = (spec: Json | undefined) => JSON.stringify({ selector: spec?.selector, serviceName: spec?.serviceName, volumeClaimTemplates: spec?.volumeClaimTemplates ?? [] });
    if (frozen(existing.spec) !== frozen(next.spec)) {
      throw new HttpFailure(
        422,
        'Invalid',
        `StatefulSet.apps "${next.metadata.name}" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`,
      );
    }
  }

  private applyClaim(existing: KubeObject | undefined, next: KubeObject): void {
    const requested = (object: KubeObject | undefined) => quantityToNumber(((object?.spec?.resources as Json | undefined)?.requests as Json | undefined)?.storage);
    const size = ((next.spec?.resources as Json | undefined)?.requests as Json | undefined)?.storage;
    if (existing) {
      const without = (object: KubeObject) => JSON.stringify({ ...object.spec, resources: undefined, volumeName: undefined });
      if (without(existing) !== without(next)) throw new HttpFailure(422, 'Invalid', `PersistentVolumeClaim "${next.metadata.name}" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims`);
      if (requested(next) < requested(existing)) throw new HttpFailure(422, 'Invalid', `PersistentVolumeClaim "${next.metadata.name}" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity`);
      if (requested(next) > requested(existing) && !this.options.allowVolumeExpansion) {
        throw new HttpFailure(403, 'Forbidden', `persistentvolumeclaims "${next.metadata.name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`);
      }
    }
    next.spec = { ...next.spec, volumeName: `pvc-${next.metadata.uid ?? ''}` };
    next.status = { phase: 'Bound', accessModes: next.spec.accessModes, capacity: { storage: size } };
  }

  private allocateNodePorts(existing: KubeObject | undefined, next: KubeObject): void {
    const taken = new Set(
      this.stored('services')
        .filter((service) => service.metadata.name !== next.metadata.name)
        .flatMap((service) => ((service.spec?.ports as Json[] | undefined) ?? []).map((port) => Number(port.nodePort))),
    );
    const before = new Map(((existing?.spec?.ports as Json[] | undefined) ?? []).map((port) => [String(port.name), Number(port.nodePort)]));
    const ports = ((next.spec?.ports as Json[] | undefined) ?? []).map((port) => {
      const wanted = port.nodePort === undefined ? before.get(String(port.name)) : Number(port.nodePort);
      if (wanted !== undefined) {
        if (taken.has(wanted)) throw new HttpFailure(422, 'Invalid', `Service "${next.metadata.name}" is invalid: spec.ports[].nodePort: Invalid value: ${wanted}: provided port is already allocated`);
        taken.add(wanted);
        return { ...port, nodePort: wanted };
      }
      for (let candidate = this.options.nodePorts.min; candidate <= this.options.nodePorts.max; candidate += 1) {
        if (taken.has(candidate)) continue;
        taken.add(candidate);
        return { ...port, nodePort: candidate };
      }
      throw new HttpFailure(500, 'InternalError', 'failed to allocate a nodePort: range is full');
    });
    next.spec = { ...next.spec, ports };
  }

  private remove(resource: keyof typeof RESOURCES, key: string, object: KubeObject): void {
    this.managers.delete(key);
    if (resource === 'statefulsets' || resource === 'persistentvolumeclaims' || resource === 'pods' || resource === 'jobs') {
      // Removed by the kubelet once its pod is gone (a PVC in use is kept, as kubernetes.io/pvc-protection does).
      object.metadata.deletionTimestamp ??= new Date().toISOString();
      return;
    }
    this.objects.delete(key);
  }

  // ---- the kubelet and kube-proxy ----------------------------------------------------------------

  private wake(): void {
    if (this.passQueued || this.options.kubelet === false) return;
    this.passQueued = true;
    setImmediate(() => this.sync());
  }

  private sync(): void {
    this.passQueued = false;
    this.pass = this.pass
      .then(() => this.syncOnce())
      .catch((error: unknown) => {
        this.lastSyncError = error instanceof Error ? error.message : String(error);
      });
  }

  private async syncOnce(): Promise<void> {
    const namespace = this.options.namespace;
    for (const set of this.stored('statefulsets')) {
      const podName = `${set.metadata.name}-0`;
      const podKey = `pods/${namespace}/${podName}`;
      const pod = this.objects.get(podKey);
      const template = set.spec?.template as PodTemplate;
      const templateHash = JSON.stringify(template);
      const wanted = set.spec?.replicas === 1 && !set.metadata.deletionTimestamp;
      if (pod && (!wanted || pod.metadata.deletionTimestamp || pod.metadata.annotations === undefined || (pod.metadata.annotations as Record<string, string>)['slg.io/template'] !== templateHash)) {
        await this.removePod(podKey, pod);
      } else if (wanted && !pod) {
        this.objects.set(podKey, this.podOf(podName, set, template, { 'statefulset.kubernetes.io/pod-name': podName }, { hostname: podName, subdomain: set.spec?.serviceName }));
      }
      const current = this.objects.get(podKey);
      if (current && !current.metadata.deletionTimestamp) await this.runPod(podKey, current);
      const ready = current?.status?.conditions && (current.status.conditions as Json[]).some((condition) => condition.type === 'Ready' && condition.status === 'True');
      set.status = { replicas: current ? 1 : 0, readyReplicas: ready ? 1 : 0, availableReplicas: ready ? 1 : 0, observedGeneration: set.metadata.generation };
      if (set.metadata.deletionTimestamp && !this.objects.get(podKey)) this.objects.delete(`statefulsets/${namespace}/${set.metadata.name}`);
    }
    for (const job of this.stored('jobs')) await this.syncJob(job);
    // Pods whose owner was deleted go too.
    for (const pod of this.stored('pods')) {
      const owner = (pod.metadata.ownerReferences as { kind: string; name: string }[] | undefined)?.[0];
      const ownerKey = `${owner?.kind === 'Job' ? 'jobs' : 'statefulsets'}/${namespace}/${owner?.name ?? ''}`;
      if (!this.objects.has(ownerKey)) await this.removePod(`pods/${namespace}/${pod.metadata.name}`, pod);
    }
    for (const claim of this.stored('persistentvolumeclaims')) {
      if (!claim.metadata.deletionTimestamp) continue;
      const used = this.stored('pods').some((pod) => ((pod.spec?.volumes as Json[] | undefined) ?? []).some((volume) => (volume.persistentVolumeClaim as Json | undefined)?.claimName === claim.metadata.name));
      if (used) continue;
      await this.docker.getVolume(claimVolumeName(namespace, claim.metadata.name)).remove().catch(() => undefined);
      this.objects.delete(`persistentvolumeclaims/${namespace}/${claim.metadata.name}`);
    }
    await this.syncProxies();
  }

  private podOf(name: string, owner: KubeObject, template: PodTemplate, labels: Record<string, string>, spec: Json): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: this.options.namespace,
        uid: randomUUID(),
        creationTimestamp: new Date().toISOString(),
        labels: { ...template.metadata?.labels, ...labels },
        annotations: { 'slg.io/template': JSON.stringify(template) },
        ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true }],
      },
      spec: { ...template.spec, ...spec },
      status: { phase: 'Pending', conditions: [] },
    };
  }

  /** A Job runs one pod once (backoffLimit 0); suspending it removes its pod; deleting it removes its pods first. */
  private async syncJob(job: KubeObject): Promise<void> {
    const namespace = this.options.namespace;
    const pods = this.stored('pods').filter((pod) => (pod.metadata.ownerReferences as { kind: string; name: string }[] | undefined)?.[0]?.name === job.metadata.name);
    const jobKey = `jobs/${namespace}/${job.metadata.name}`;
    if (job.metadata.deletionTimestamp) {
      for (const pod of pods) await this.removePod(`pods/${namespace}/${pod.metadata.name}`, pod);
      this.objects.delete(jobKey);
      return;
    }
    const conditions = (job.status?.conditions as Json[] | undefined) ?? [];
    if (conditions.some((condition) => (condition.type === 'Complete' || condition.type === 'Failed') && condition.status === 'True')) return;
    if (job.spec?.suspend === true) {
      for (const pod of pods) await this.removePod(`pods/${namespace}/${pod.metadata.name}`, pod);
      job.status = { active: 0, conditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', lastTransitionTime: new Date().toISOString() }] };
      return;
    }
    let pod = pods[0];
    if (!pod) {
      pod = this.podOf(`${job.metadata.name}-${randomUUID().slice(0, 5)}`, job, job.spec?.template as PodTemplate, { 'job-name': job.metadata.name }, {});
      this.objects.set(`pods/${namespace}/${pod.metadata.name}`, pod);
    }
    if (!pod.metadata.deletionTimestamp) await this.runPod(`pods/${namespace}/${pod.metadata.name}`, pod);
    const now = new Date().toISOString();
    if (pod.status?.phase === 'Succeeded') job.status = { succeeded: 1, active: 0, completionTime: now, conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: now }] };
    else if (pod.status?.phase === 'Failed') job.status = { failed: 1, active: 0, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: now }] };
    else job.status = { active: 1, startTime: job.status?.startTime ?? now };
  }

  private setPodStatus(pod: KubeObject, statusUpdate: Json): void {
    pod.status = { ...pod.status, ...statusUpdate };
    pod.metadata.resourceVersion = String(Date.now());
  }

  /** The engine's container of a pod's container: the first container's name is the pod's, so exec finds it. */
  private containerName(pod: KubeObject, container: string): string {
    const first = ((pod.spec as unknown as PodSpec).containers[0] as ContainerSpec | undefined)?.name;
    return container === first ? podContainerName(this.options.namespace, pod.metadata.name) : `${podContainerName(this.options.namespace, pod.metadata.name)}-${container}`;
  }

  /** Places the pod on its node (the GPUs it asks for counted against the node's); a refusal is the pod's Unschedulable condition. */
  private schedule(pod: KubeObject, spec: PodSpec): boolean {
    if (spec.nodeName) return true;
    const nodeName = spec.nodeSelector?.['kubernetes.io/hostname'];
    const node = this.nodes.find((candidate) => candidate.name === nodeName);
    const gpusOf = (podSpec: PodSpec) => Number(podSpec.containers[0]?.resources?.limits?.['nvidia.com/gpu'] ?? 0);
    const used = this.stored('pods')
      .filter((other) => other !== pod && (other.spec as unknown as PodSpec).nodeName === nodeName && other.status?.phase !== 'Succeeded' && other.status?.phase !== 'Failed')
      .reduce((sum, other) => sum + gpusOf(other.spec as unknown as PodSpec), 0);
    const refusal = !node
      ? `0/${this.nodes.length} nodes are available: ${this.nodes.length} node(s) didn't match Pod's node affinity/selector.`
      : node.ready !== 'True'
        ? `0/${this.nodes.length} nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }.`
        : used + gpusOf(spec) > node.allocatable.gpus
          ? `0/${this.nodes.length} nodes are available: 1 Insufficient nvidia.com/gpu.`
          : null;
    if (refusal) {
      this.setPodStatus(pod, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: refusal }] });
      return false;
    }
    pod.spec = { ...pod.spec, nodeName };
    return true;
  }

  /**
   * Runs the pod's init containers one after the other, then its container: marked Ready once its
   * readiness probe's port answers; with restartPolicy Never (a Job's pod) the pod ends Succeeded or
   * Failed with the container's exit code and termination message; otherwise the container is
   * restarted (restartContainer).
   */
  private async runPod(key: string, pod: KubeObject): Promise<void> {
    if (this.busy.has(key)) return;
    const spec = pod.spec as unknown as PodSpec;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    if (!this.schedule(pod, spec)) return;
    const restarts = (spec.restartPolicy ?? 'Always') !== 'Never';
    const initStatuses = [...((pod.status?.initContainerStatuses as Json[] | undefined) ?? [])];
    for (const [index, init] of (spec.initContainers ?? []).entries()) {
      if ((initStatuses[index]?.state as { terminated?: { exitCode: number } } | undefined)?.terminated?.exitCode === 0) continue;
      const name = this.containerName(pod, init.name);
      const existing = await this.docker.getContainer(name).inspect().catch(() => null);
      if (!existing) {
        initStatuses[index] = { name: init.name, ready: false, restartCount: 0, image: init.image, state: { waiting: { reason: 'PodInitializing' } } };
        this.setPodStatus(pod, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }], initContainerStatuses: initStatuses });
        await this.guarded(key, () => this.createContainer(pod, init, name, true));
        return;
      }
      if (existing.State.Running) return;
      const terminated = { exitCode: existing.State.ExitCode, reason: existing.State.ExitCode === 0 ? 'Completed' : 'Error', message: await this.terminationMessage(name) };
      if (terminated.exitCode !== 0) {
        initStatuses[index] = restarts
          ? { name: init.name, ready: false, restartCount: 1, image: init.image, state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off restarting failed container ${init.name} (exit code ${terminated.exitCode})` } } }
          : { name: init.name, ready: false, restartCount: 0, image: init.image, state: { terminated } };
        this.setPodStatus(pod, { phase: restarts ? 'Pending' : 'Failed', initContainerStatuses: initStatuses });
        return;
      }
      initStatuses[index] = { name: init.name, ready: true, restartCount: 0, image: init.image, state: { terminated } };
      this.setPodStatus(pod, { initContainerStatuses: initStatuses });
    }
    const container = spec.containers[0] as ContainerSpec;
    const name = this.containerName(pod, container.name);
    if (isBuilder(container)) return this.runBuilder(key, pod, container);
    const existing = await this.docker.getContainer(name).inspect().catch(() => null);
    const before = (pod.status?.containerStatuses as Json[] | undefined)?.[0];
    // What a restarted container's status keeps of the ones before it.
    const history = { restartCount: Number(before?.restartCount ?? 0), ...(before?.lastState ? { lastState: before.lastState } : {}) };
    if (existing?.State.Running) {
      const port = container.readinessProbe?.tcpSocket?.port;
      const address = Object.values(existing.NetworkSettings.Networks)[0]?.IPAddress ?? '';
      const wasReady = ((pod.status?.conditions as Json[] | undefined) ?? []).find((condition) => condition.type === 'Ready' && condition.status === 'True');
      if (wasReady) return;
      const answers = port ? await portAnswers(address, port) : true;
      const now = new Date().toISOString();
      this.setPodStatus(pod, {
        phase: 'Running',
        podIP: address,
        startTime: pod.status?.startTime ?? existing.State.StartedAt,
        conditions: [
          { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
          { type: 'Ready', status: answers ? 'True' : 'False', lastTransitionTime: now },
        ],
        containerStatuses: [{ name: container.name, image: container.image, ready: answers, ...history, state: { running: { startedAt: existing.State.StartedAt } } }],
      });
      return;
    }
    if (existing) {
      const exitCode = existing.State.ExitCode;
      const terminated = { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', message: await this.terminationMessage(name), startedAt: existing.State.StartedAt, finishedAt: existing.State.FinishedAt };
      if (!restarts) {
        // A Job's pod ends as its container's exit code says.
        this.setPodStatus(pod, { phase: exitCode === 0 ? 'Succeeded' : 'Failed', containerStatuses: [{ name: container.name, image: container.image, ready: false, restartCount: 0, state: { terminated } }] });
        return;
      }
      await this.guarded(key, () => this.restartContainer(pod, container, name, terminated, history));
      return;
    }
    await this.guarded(key, () => this.createContainer(pod, container, name, false));
  }

  /**
   * The kubelet's answer to a container of a restartPolicy Always pod that ended: its status says so
   * (terminated, the pod no longer Ready) until the restart, at once the first time, later after a
   * back-off of 10 s doubling up to 5 min (waiting: CrashLoopBackOff); the new container's status keeps
   * the count and the ended one as its last state, and the ended one's log stays readable (`previous`).
   */
  private async restartContainer(pod: KubeObject, container: ContainerSpec, name: string, terminated: Json & { finishedAt: string }, history: { restartCount: number; lastState?: unknown }): Promise<void> {
    const before = (pod.status?.containerStatuses as Json[] | undefined)?.[0]?.state as { terminated?: Json; waiting?: { reason?: string } } | undefined;
    const notReady = ((pod.status?.conditions as Json[] | undefined) ?? []).map((condition) => (condition.type === 'Ready' ? { ...condition, status: 'False', reason: 'ContainersNotReady' } : condition));
    const backOffMs = history.restartCount === 0 ? 0 : Math.min(10_000 * 2 ** (history.restartCount - 1), 300_000);
    if (!before?.terminated && before?.waiting?.reason !== 'CrashLoopBackOff') {
      // The exit, as the kubelet first reports it.
      this.setPodStatus(pod, { conditions: notReady, containerStatuses: [{ name: container.name, image: container.image, ready: false, ...history, state: { terminated } }] });
      return;
    }
    if (Date.now() < new Date(terminated.finishedAt).getTime() + backOffMs) {
      const waiting = { reason: 'CrashLoopBackOff', message: `back-off ${backOffMs / 1000}s restarting failed container=${container.name} pod=${pod.metadata.name}` };
      this.setPodStatus(pod, { conditions: notReady, containerStatuses: [{ name: container.name, image: container.image, ready: false, restartCount: history.restartCount, lastState: { terminated }, state: { waiting } }] });
      return;
    }
    const previous = `${name}-previous`;
    await this.docker.getContainer(previous).remove({ force: true }).catch(() => undefined);
    await this.docker.getContainer(name).rename({ name: previous });
    await this.createContainer(pod, container, name, false, { restartCount: history.restartCount + 1, lastState: { terminated } });
  }

  private async guarded(key: string, work: () => Promise<void>): Promise<void> {
    if (this.busy.has(key)) return;
    this.busy.add(key);
    try {
      await work();
    } finally {
      this.busy.delete(key);
    }
  }

  /** Where a pod's volume lives on this machine (the engine is local): the named volume's mount point. */
  private async volumeDirectory(volumeName: string, labels: Record<string, string>): Promise<string> {
    await this.docker.createVolume({ Name: volumeName, Labels: labels }).catch(() => undefined);
    return (await this.docker.getVolume(volumeName).inspect()).Mountpoint;
  }

  /** The host directory of each of a container's volume mounts (PVCs and emptyDirs), by mount path; a refusal is the reason the pod waits. */
  private async mountsOf(pod: KubeObject, container: ContainerSpec): Promise<{ binds: string[]; secretFiles: { path: string; body: string }[]; directories: Map<string, string> } | { waiting: [string, string] }> {
    const namespace = this.options.namespace;
    const volumes = (pod.spec as unknown as PodSpec).volumes ?? [];
    const binds: string[] = [];
    const secretFiles: { path: string; body: string }[] = [];
    const directories = new Map<string, string>();
    for (const mount of container.volumeMounts ?? []) {
      const volume = volumes.find((candidate) => candidate.name === mount.name) as { persistentVolumeClaim?: { claimName: string }; secret?: { secretName: string }; emptyDir?: Json } | undefined;
      let directory: string | null = null;
      if (volume?.persistentVolumeClaim) {
        const claim = this.objects.get(`persistentvolumeclaims/${namespace}/${volume.persistentVolumeClaim.claimName}`);
        if (!claim || claim.metadata.deletionTimestamp) return { waiting: ['ContainerCreating', `persistentvolumeclaim "${volume.persistentVolumeClaim.claimName}" not found`] };
        directory = await this.volumeDirectory(claimVolumeName(namespace, claim.metadata.name), { [LABEL_FAKE]: namespace });
      } else if (volume?.emptyDir) {
        directory = await this.volumeDirectory(`${podContainerName(namespace, pod.metadata.name)}-${mount.name}`, { [LABEL_FAKE]: namespace, [LABEL_POD]: pod.metadata.name });
      } else if (volume?.secret) {
        const secret = this.objects.get(`secrets/${namespace}/${volume.secret.secretName}`);
        if (!secret) return { waiting: ['ContainerCreating', `secret "${volume.secret.secretName}" not found`] };
        for (const [file, value] of Object.entries(secret.data ?? {})) secretFiles.push({ path: `${mount.mountPath.replace(/^\//, '')}/${file}`, body: Buffer.from(value, 'base64').toString() });
      }
      if (directory === null) continue;
      // subPath: the kubelet makes the directory when it is missing.
      const source = mount.subPath ? `${directory}/${mount.subPath}` : directory;
      if (mount.subPath) await mkdir(source, { recursive: true });
      binds.push(`${source}:${mount.mountPath}${mount.readOnly ? ':ro' : ''}`);
      directories.set(mount.mountPath, source);
    }
    return { binds, secretFiles, directories };
  }

  /** The image on the engine, pulled from its registry when missing; false when it cannot be had. */
  private async imagePresent(image: string): Promise<boolean> {
    if (await this.docker.getImage(image).inspect().then(() => true, () => false)) return true;
    try {
      const stream = await this.docker.pull(image);
      await new Promise<void>((resolve, reject) => this.docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())));
      this.pulled.add(image);
      return true;
    } catch {
      return false;
    }
  }

  private async createContainer(pod: KubeObject, container: ContainerSpec, name: string, init: boolean, restarted?: { restartCount: number; lastState: Json }): Promise<void> {
    const namespace = this.options.namespace;
    const engine = this.docker;
    const statusKey = init ? 'initContainerStatuses' : 'containerStatuses';
    const waiting = (reason: string, message: string) => {
      const statuses = ((pod.status?.[statusKey] as Json[] | undefined) ?? []).filter((entry) => entry.name !== container.name);
      this.setPodStatus(pod, { phase: 'Pending', [statusKey]: [...statuses, { name: container.name, image: container.image, ready: false, restartCount: 0, state: { waiting: { reason, message } } }] });
    };
    const env: string[] = [];
    for (const variable of container.env ?? []) {
      const from = variable.valueFrom as { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } } | undefined;
      if (from?.fieldRef) {
        // The downward API: the pod's own fields.
        const fields: Record<string, string | undefined> = { 'metadata.name': pod.metadata.name, 'metadata.namespace': namespace, 'metadata.uid': pod.metadata.uid, 'spec.nodeName': (pod.spec as unknown as PodSpec).nodeName };
        env.push(`${String(variable.name)}=${fields[from.fieldRef.fieldPath] ?? ''}`);
        continue;
      }
      const ref = from?.secretKeyRef;
      if (!ref) {
        env.push(`${String(variable.name)}=${String(variable.value ?? '')}`);
        continue;
      }
      const value = this.objects.get(`secrets/${namespace}/${ref.name}`)?.data?.[ref.key];
      if (value === undefined) return waiting('CreateContainerConfigError', `secret "${ref.name}" not found`);
      env.push(`${String(variable.name)}=${Buffer.from(value, 'base64').toString()}`);
    }
    const mounts = await this.mountsOf(pod, container);
    if ('waiting' in mounts) return waiting(...mounts.waiting);
    if (!(await this.imagePresent(container.image))) return waiting('ErrImagePull', `Failed to pull image "${container.image}": rpc error: code = NotFound desc = failed to pull and unpack image "${container.image}": not found`);
    const terminationLog = await this.terminationLogFile(name);
    const limits = container.resources?.limits;
    const created = await engine.createContainer({
      name,
      Image: container.image,
      Entrypoint: container.command,
      Cmd: container.args ?? [],
      Env: env,
      Hostname: pod.metadata.name,
      Labels: { [LABEL_FAKE]: namespace, [LABEL_POD]: pod.metadata.name, ...(pod.metadata.labels ?? {}) },
      HostConfig: {
        Binds: [...mounts.binds, `${terminationLog}:${container.terminationMessagePath ?? '/dev/termination-log'}`],
        // A node of the fake is this machine: a limit beyond its cores is clamped to them.
        ...(limits?.cpu ? { NanoCpus: Math.round(Math.min(quantityToNumber(limits.cpu), await this.engineCpus()) * 1e9) } : {}),
        ...(limits?.memory ? { Memory: Math.round(quantityToNumber(limits.memory)) } : {}),
      },
    });
    if (mounts.secretFiles.length > 0) {
      const pack = tar.pack();
      for (const file of mounts.secretFiles) pack.entry({ name: file.path, mode: 0o400, uid: 0, gid: 0 }, file.body);
      pack.finalize();
      const chunks: Buffer[] = [];
      for await (const chunk of pack) chunks.push(chunk as Buffer);
      await created.putArchive(Buffer.concat(chunks), { path: '/' });
    }
    await created.start();
    if (restarted) {
      const conditions = ((pod.status?.conditions as Json[] | undefined) ?? []).map((condition) => (condition.type === 'Ready' ? { ...condition, status: 'False' } : condition));
      this.setPodStatus(pod, { conditions, containerStatuses: [{ name: container.name, image: container.image, ready: false, ...restarted, state: { running: { startedAt: new Date().toISOString() } } }] });
    } else if (!init) {
      this.setPodStatus(pod, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }], containerStatuses: [{ name: container.name, ready: false, state: { waiting: { reason: 'ContainerCreating' } } }] });
    }
  }

  /** The file on this machine bound at a container's terminationMessagePath (the kubelet's way of reading it after the container ends). */
  private async terminationLogFile(containerName: string): Promise<string> {
    const directory = join(tmpdir(), `slg-fake-kubelet-${this.options.namespace}`);
    await mkdir(directory, { recursive: true });
    const file = join(directory, containerName);
    await writeFile(file, '');
    return file;
  }

  private async terminationMessage(containerName: string): Promise<string> {
    return (await readFile(join(tmpdir(), `slg-fake-kubelet-${this.options.namespace}`, containerName), 'utf8').catch(() => '')).trim().slice(0, 4096);
  }

  /**
   * kaniko's executor cannot be pulled here: its effect is had with the engine instead — the same
   * Dockerfile built over the same context (the context's directory, the Dockerfile beside it, the
   * Dockerfile itself left out as kaniko's context never holds it), the image pushed to its destination
   * and dropped from the engine, so a pod that runs it pulls it from the registry.
   */
  private async runBuilder(key: string, pod: KubeObject, container: ContainerSpec): Promise<void> {
    const state = this.builds.get(key);
    if (state === 'running') return;
    if (state) {
      this.builds.delete(key);
      const terminated = state.error === null ? { exitCode: 0, reason: 'Completed' } : { exitCode: 1, reason: 'Error', message: state.error.slice(0, 4096) };
      this.setPodStatus(pod, { phase: state.error === null ? 'Succeeded' : 'Failed', containerStatuses: [{ name: container.name, image: container.image, ready: false, restartCount: 0, state: { terminated } }] });
      return;
    }
    const mounts = await this.mountsOf(pod, container);
    if ('waiting' in mounts) return;
    const argument = (flag: string) => container.args?.find((arg) => arg.startsWith(`--${flag}=`))?.slice(flag.length + 3) ?? '';
    const onHost = (path: string) => {
      const [mountPath, directory] = [...mounts.directories].find(([mountPath]) => path === mountPath || path.startsWith(`${mountPath}/`)) ?? [];
      if (mountPath === undefined || directory === undefined) throw new Error(`${path} is on no volume of the pod`);
      return `${directory}${path.slice(mountPath.length)}`;
    };
    this.builds.set(key, 'running');
    this.setPodStatus(pod, { phase: 'Running', containerStatuses: [{ name: container.name, image: container.image, ready: true, restartCount: 0, state: { running: { startedAt: new Date().toISOString() } } }] });
    const destination = argument('destination');
    const build = async () => {
      const context = onHost(argument('context').replace(/^dir:\/\//, ''));
      const dockerfile = onHost(argument('dockerfile'));
      const staging = await mkdtemp(join(tmpdir(), 'slg-fake-kaniko-'));
      try {
        await writeFile(join(staging, 'Dockerfile'), await readFile(dockerfile));
        await writeFile(join(staging, '.dockerignore'), 'Dockerfile\n.dockerignore\n');
        const archive = spawn('tar', ['-c', '-C', staging, 'Dockerfile', '.dockerignore', '-C', context, '.'], { stdio: ['ignore', 'pipe', 'ignore'] });
        const stream = await this.docker.buildImage(archive.stdout, { t: destination, dockerfile: 'Dockerfile' });
        await new Promise<void>((resolve, reject) => this.docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => (error ? reject(error) : output.find((entry) => entry.error) ? reject(new Error(output.find((entry) => entry.error)?.error)) : resolve())));
        const push = await this.docker.getImage(destination).push({ authconfig: {} });
        await new Promise<void>((resolve, reject) => this.docker.modem.followProgress(push, (error: Error | null, output: { error?: string }[]) => (error ? reject(error) : output.find((entry) => entry.error) ? reject(new Error(output.find((entry) => entry.error)?.error)) : resolve())));
        await this.docker.getImage(destination).remove();
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    };
    build().then(
      () => this.builds.set(key, { error: null }),
      (error: unknown) => this.builds.set(key, { error: `error building image: ${error instanceof Error ? error.message : String(error)}` }),
    );
  }

  private cpus: number | undefined;
  private async engineCpus(): Promise<number> {
    this.cpus ??= ((await this.docker.info()) as { NCPU?: number }).NCPU ?? 1;
    return this.cpus;
  }

  private async removePod(key: string, pod: KubeObject): Promise<void> {
    await this.guarded(key, async () => {
      pod.metadata.deletionTimestamp ??= new Date().toISOString();
      const containers = await this.docker.listContainers({ all: true, filters: { label: [`${LABEL_FAKE}=${this.options.namespace}`, `${LABEL_POD}=${pod.metadata.name}`] } });
      await Promise.all(containers.map((item) => this.docker.getContainer(item.Id).remove({ force: true }).catch(() => undefined)));
      const volumes = (await this.docker.listVolumes({ filters: { label: [`${LABEL_FAKE}=${this.options.namespace}`, `${LABEL_POD}=${pod.metadata.name}`] } })).Volumes ?? [];
      await Promise.all(volumes.map((volume) => this.docker.getVolume(volume.Name).remove().catch(() => undefined)));
      this.objects.delete(key);
    });
  }

  /** kube-proxy: each NodePort of a Service relays to its pod's container (all nodes are this machine). */
  private async syncProxies(): Promise<void> {
    const wanted = new Map<number, { service: string; targetPort: number }>();
    for (const service of this.stored('services')) {
      for (const port of (service.spec?.ports as Json[] | undefined) ?? []) wanted.set(Number(port.nodePort), { service: service.metadata.name, targetPort: Number(port.targetPort ?? port.port) });
    }
    for (const [nodePort, proxy] of this.proxies) {
      const still = wanted.get(nodePort);
      if (still && still.service === proxy.service && still.targetPort === proxy.targetPort) continue;
      proxy.server.close();
      this.proxies.delete(nodePort);
    }
    for (const [nodePort, target] of wanted) {
      if (this.proxies.has(nodePort)) continue;
      const server = createTcpServer((client) => {
        const service = this.objects.get(`services/${this.options.namespace}/${target.service}`);
        const podName = (service?.spec?.selector as Record<string, string> | undefined)?.['statefulset.kubernetes.io/pod-name'] ?? '';
        const pod = this.objects.get(`pods/${this.options.namespace}/${podName}`);
        const address = pod?.status?.podIP as string | undefined;
        if (!address || pod?.metadata.deletionTimestamp) return void client.destroy();
        const upstream = connect({ host: address, port: target.targetPort });
        client.pipe(upstream).pipe(client);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      });
      await new Promise<void>((resolve) => {
        server.once('error', () => resolve());
        server.listen(nodePort, '127.0.0.1', resolve);
      });
      this.proxies.set(nodePort, { server, ...target });
    }
  }

  // ---- pods/log ---------------------------------------------------------------------------------

  /** A container's log as the kubelet serves it: stdout and stderr interleaved, the last `tailLines`, the ended container before the current one with `previous`. */
  private async podLog(podName: string, query: URLSearchParams): Promise<string> {
    const pod = this.objects.get(`pods/${this.options.namespace}/${podName}`);
    if (!pod) throw new HttpFailure(404, 'NotFound', `pods "${podName}" not found`);
    const spec = pod.spec as unknown as PodSpec;
    const containerName = query.get('container') ?? spec.containers[0]?.name ?? '';
    if (![...(spec.initContainers ?? []), ...spec.containers].some((container) => container.name === containerName)) {
      throw new HttpFailure(400, 'BadRequest', `container ${containerName} is not valid for pod ${podName}`);
    }
    if (this.options.kubelet === false) return '';
    const previous = query.get('previous') === 'true';
    const engineName = `${this.containerName(pod, containerName)}${previous ? '-previous' : ''}`;
    if (!(await this.docker.getContainer(engineName).inspect().then(() => true, () => false))) {
      throw new HttpFailure(400, 'BadRequest', previous ? `previous terminated container "${containerName}" in pod "${podName}" not found` : `container "${containerName}" in pod "${podName}" is waiting to start: ContainerCreating`);
    }
    const tail = query.get('tailLines');
    const log = await this.docker.getContainer(engineName).logs({ stdout: true, stderr: true, follow: false, ...(tail ? { tail: Number(tail) } : {}) });
    // Without a TTY the engine frames each write: an 8-byte header (stream, length) and the bytes.
    const parts: Buffer[] = [];
    for (let offset = 0; offset + 8 <= log.length; offset += 8 + log.readUInt32BE(offset + 4)) parts.push(log.subarray(offset + 8, offset + 8 + log.readUInt32BE(offset + 4)));
    return Buffer.concat(parts).toString('utf8');
  }

  // ---- pods/exec ----------------------------------------------------------------------------------

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    this.requests.push({ method: 'GET', path: `${url.pathname}${url.search}` });
    let target: ReturnType<FakeKubeApiServer['route']>;
    try {
      target = this.route(url.pathname);
    } catch {
      return void socket.destroy();
    }
    const pod = target.name ? this.objects.get(`pods/${target.namespace}/${target.name}`) : undefined;
    if (target.resource !== 'pods' || target.sub !== 'exec' || !pod || pod.status?.phase !== 'Running') {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\n\r\n' + JSON.stringify(status(404, 'NotFound', `pods "${target.name ?? ''}" not found or not running`)));
      return;
    }
    const command = url.searchParams.getAll('command');
    const withStdin = url.searchParams.get('stdin') === 'true';
    this.sockets.handleUpgrade(request, socket, head, (ws) => void this.exec(ws, podContainerName(this.options.namespace, pod.metadata.name), command, withStdin));
  }

  private async exec(ws: WebSocket, containerName: string, command: string[], withStdin: boolean): Promise<void> {
    const frame = (channel: number, data: Buffer | string) => ws.send(Buffer.concat([Buffer.from([channel]), Buffer.isBuffer(data) ? data : Buffer.from(data)]));
    // The client may send stdin as soon as the socket opens, before the exec exists: held until then.
    const early: Buffer[] = [];
    let deliver = (data: Buffer) => void early.push(data);
    ws.on('message', (data: Buffer) => deliver(data));
    try {
      const exec = await this.docker.getContainer(containerName).exec({ Cmd: command, AttachStdin: withStdin, AttachStdout: true, AttachStderr: true });
      const stream = await exec.start({ hijack: true, stdin: withStdin });
      deliver = (data: Buffer) => {
        if (data[0] === 0) stream.write(data.subarray(1));
        else if (data[0] === 255 && data[1] === 0) stream.end();
      };
      for (const data of early.splice(0)) deliver(data);
      const stdout = { write: (chunk: Buffer) => frame(1, chunk) };
      const stderr = { write: (chunk: Buffer) => frame(2, chunk) };
      this.docker.modem.demuxStream(stream, stdout as never, stderr as never);
      await new Promise<void>((resolve) => stream.on('end', resolve).on('close', resolve));
      const { ExitCode } = await exec.inspect();
      frame(
        3,
        JSON.stringify(
          ExitCode === 0
            ? { metadata: {}, status: 'Success' }
            : { metadata: {}, status: 'Failure', message: `command terminated with non-zero exit code: ${ExitCode}`, reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: String(ExitCode) }] } },
        ),
      );
    } catch (error) {
      frame(3, JSON.stringify({ metadata: {}, status: 'Failure', message: String(error), reason: 'InternalError' }));
    }
    ws.close(1000);
  }
}
