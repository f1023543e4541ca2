import { NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB, DATA_DISK_MOUNT_PATH } from '@slg/shared';
import { StatefulSet, type IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PersistentVolumeClaim, type IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { INSTANCE_LABEL } from '../docker/engines.js';
import { TOOLS_START } from '../docker/machine-files.js';

/** The one field manager of every server-side apply: repeating an apply is a no-op. */
export const FIELD_MANAGER = 'slg-compute';
export const GPU_RESOURCE = 'nvidia.com/gpu';
/** The node label a pod is pinned by: the host id is the node's name. */
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
export const MACHINE_CONTAINER = 'machine';
const SECRET_MOUNT = '/etc/slg-secret';

/** The names of an instance's objects (docs/compute.md "Mapping onto Kubernetes"). */
export const objectNames = (instanceId: string) => ({
  statefulSet: instanceId,
  pod: `${instanceId}-0`,
  dataClaim: `${instanceId}-data`,
  service: `${instanceId}-ssh`,
  secret: `${instanceId}-root`,
});

/**
 * PID 1 of a machine on Kubernetes. Nothing of a pod's file system outlives it, so every start is a
 * first boot: root's password comes from the Secret (the platform's copy, which setPassword keeps
 * current), authorized_keys from the Secret's file unless the data of a previous run left one, then the
 * tools and sshd as on Docker (machine-files.ts).
 */
export const KUBERNETES_MACHINE_INIT = [
  'set -e',
  `printf 'root:%s\\n' "$SLG_ROOT_PASSWORD" | chpasswd`,
  `mkdir -p /run/sshd ${DATA_DISK_MOUNT_PATH} /root/.ssh`,
  `if [ -s ${SECRET_MOUNT}/authorized_keys ] && [ ! -f /root/.ssh/authorized_keys ]; then install -m 600 ${SECRET_MOUNT}/authorized_keys /root/.ssh/authorized_keys; fi`,
  "[ -f /etc/ssh/ssh_host_ed25519_key ] || ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/ssh_host_ed25519_key",
  TOOLS_START,
  'exec /usr/sbin/sshd -D -e -o HostKey=/etc/ssh/ssh_host_ed25519_key -o PermitRootLogin=yes -o PasswordAuthentication=yes',
].join('\n');

/** Each manifest is checked against the Kubernetes schema (kubernetes-models) before it is sent. */
function validated<T extends { validate(): void; toJSON(): unknown }>(model: T): T {
  model.validate();
  return model;
}

const labelsOf = (instanceId: string) => ({ [INSTANCE_LABEL]: instanceId });

export interface MachineShape {
  instanceId: string;
  hostId: string;
  namespace: string;
  /** The image reference the container runs, and the platform's id of it (a public image id or a private image's uid). */
  image: string;
  imageId: string;
  /** 0: no-GPU mode, which runs on NO_GPU_CPU_CORES and NO_GPU_MEMORY_GB. */
  gpuNum: number;
  cpuCores: number;
  memoryGb: number;
  replicas: 0 | 1;
}

/** The machine: a StatefulSet of at most one pod, pinned to its node, with the data disk and the Secret mounted. */
export function statefulSetOf(shape: MachineShape): IStatefulSet {
  const names = objectNames(shape.instanceId);
  const withGpus = shape.gpuNum > 0;
  const cpu = String(withGpus ? shape.cpuCores : NO_GPU_CPU_CORES);
  const memory = `${withGpus ? shape.memoryGb : NO_GPU_MEMORY_GB}Gi`;
  const limits: Record<string, string> = { cpu, memory, ...(withGpus ? { [GPU_RESOURCE]: String(shape.gpuNum) } : {}) };
  return validated(
    new StatefulSet({
      metadata: { name: names.statefulSet, namespace: shape.namespace, labels: labelsOf(shape.instanceId) },
      spec: {
        replicas: shape.replicas,
        serviceName: names.service,
        selector: { matchLabels: labelsOf(shape.instanceId) },
        template: {
          metadata: { labels: labelsOf(shape.instanceId) },
          spec: {
            nodeSelector: { [HOSTNAME_LABEL]: shape.hostId },
            // The data lives on this node: never evicted elsewhere when the node stops answering.
            tolerations: [
              { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
              { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
            ],
            terminationGracePeriodSeconds: 10,
            enableServiceLinks: false,
            containers: [
              {
                name: MACHINE_CONTAINER,
                image: shape.image,
                command: ['/bin/sh', '-c', KUBERNETES_MACHINE_INIT],
                env: [
                  { name: 'SLG_INSTANCE_ID', value: shape.instanceId },
                  { name: 'SLG_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: names.secret, key: 'password' } } },
                  // CUDA images set it to `all`: without a GPU limit the runtime must not hand over every GPU.
                  ...(withGpus ? [] : [{ name: 'NVIDIA_VISIBLE_DEVICES', value: 'void' }]),
                ],
                ports: [{ name: 'ssh', containerPort: 22 }],
                resources: { requests: limits, limits },
                volumeMounts: [
                  { name: 'data', mountPath: DATA_DISK_MOUNT_PATH },
                  { name: 'secret', mountPath: SECRET_MOUNT, readOnly: true },
                ],
                readinessProbe: { tcpSocket: { port: 22 }, periodSeconds: 2 },
              },
            ],
            volumes: [
              { name: 'data', persistentVolumeClaim: { claimName: names.dataClaim } },
              { name: 'secret', secret: { secretName: names.secret, defaultMode: 0o400 } },
            ],
          },
        },
      },
    }),
  ).toJSON() as IStatefulSet;
}

export function dataClaimOf(instanceId: string, namespace: string, sizeGb: number, storageClass: string | undefined): IPersistentVolumeClaim {
  return validated(
    new PersistentVolumeClaim({
      metadata: { name: objectNames(instanceId).dataClaim, namespace, labels: labelsOf(instanceId) },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: `${sizeGb}Gi` } },
        ...(storageClass ? { storageClassName: storageClass } : {}),
      },
    }),
  ).toJSON() as IPersistentVolumeClaim;
}

export function secretOf(instanceId: string, namespace: string, password: string, authorizedKeys: readonly string[]): ISecret {
  return validated(
    new Secret({
      metadata: { name: objectNames(instanceId).secret, namespace, labels: labelsOf(instanceId) },
      type: 'Opaque',
      stringData: { password, authorized_keys: authorizedKeys.length > 0 ? `${authorizedKeys.join('\n')}\n` : '' },
    }),
  ).toJSON() as ISecret;
}

export interface ServicePort {
  /** The port inside the machine. */
  port: number;
  /** The node port outside; null lets the cluster choose (SSH's, once, for the Service's life). */
  nodePort: number | null;
}

/** SSH and the custom services of a machine on node ports (or a load balancer's) of its own Service. */
export function serviceOf(instanceId: string, namespace: string, type: 'NodePort' | 'LoadBalancer', ssh: ServicePort, custom: readonly ServicePort[]): IService {
  const portOf = (name: string, entry: ServicePort) => ({ name, protocol: 'TCP' as const, port: entry.port, targetPort: entry.port, ...(entry.nodePort ? { nodePort: entry.nodePort } : {}) });
  return validated(
    new Service({
      metadata: { name: objectNames(instanceId).service, namespace, labels: labelsOf(instanceId) },
      spec: {
        type,
        selector: { 'statefulset.kubernetes.io/pod-name': objectNames(instanceId).pod },
        ports: [portOf('ssh', ssh), ...custom.map((entry) => portOf(`svc-${entry.port}`, entry))],
      },
    }),
  ).toJSON() as IService;
}
