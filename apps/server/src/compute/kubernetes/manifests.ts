import { NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB, DATA_DISK_MOUNT_PATH, datasetMountPath, FILE_STORAGE_MOUNT, SYSTEM_DISK_GB } from '@slg/shared';
import { StatefulSet, type IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { Job, type IJob } from 'kubernetes-models/batch/v1/Job';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { PersistentVolumeClaim, type IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import type { DatasetMount } from '../driver.js';
import { INSTANCE_LABEL } from '../docker/engines.js';
import { copyDataScript, envProfile, PROFILE_WRITE, SSHD_BESIDE_COMMAND, TOOLS_START, userEnv } from '../docker/machine-files.js';

/** The one field manager of every server-side apply: repeating an apply is a no-op. */
export const FIELD_MANAGER = 'slg-compute';
export const GPU_RESOURCE = 'nvidia.com/gpu';
/** The node label a pod is pinned by: the host id is the node's name. */
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
export const MACHINE_CONTAINER = 'machine';
/**
 * The pod volume of the 文件存储: the ReadWriteMany claim (K8S_STORAGE_CLAIM), its store's sub-path at
 * /root/slg-fs, and each dataset's folder (its sub-path) read-only under /root/slg-pub.
 */
export const FILE_STORAGE_VOLUME = 'file-storage';
const SECRET_MOUNT = '/etc/slg-secret';
/** Which disk a claim is (`system` or `data`), beside the instance label. */
export const DISK_LABEL = 'slg.io/disk';
/** Jobs: the private image a save-image Job makes, the task a copy Job runs. */
export const IMAGE_LABEL = 'slg.io/image-uid';
export const COPY_LABEL = 'slg.io/copy-task';

/** The names of an instance's objects (docs/compute.md "Mapping onto Kubernetes"). */
export const objectNames = (instanceId: string) => ({
  statefulSet: instanceId,
  pod: `${instanceId}-0`,
  dataClaim: `${instanceId}-data`,
  service: `${instanceId}-ssh`,
  secret: `${instanceId}-root`,
});

/**
 * The system disk's claim. Its name carries the reinstall it was made for, so a reinstall makes a new
 * claim beside the old one (a claim being deleted cannot be applied again) and deletes the old one.
 */
export function systemClaimName(instanceId: string, reinstalledFor: number | null): string {
  return reinstalledFor === null ? `${instanceId}-system` : `${instanceId}-system-${reinstalledFor.toString(36)}`;
}

/**
 * The directories of the image that make up the system disk. Debian's merged /usr makes /bin, /sbin and
 * /lib links into /usr, so these hold everything apt, pip, conda and the user install; /tmp, /run, /proc
 * and /dev stay the pod's own.
 */
export const SYSTEM_DIRECTORIES = ['usr', 'etc', 'var', 'opt', 'home', 'root', 'srv'] as const;
const SYSTEM_MOUNT = '/slg-system';
const SEEDED_MARKER = '.slg-seeded';
const CLONE_SYSTEM_MOUNT = '/slg-clone-system';
const CLONE_DATA_MOUNT = '/slg-clone-data';

/**
 * The init container of a machine: on the first start of a system disk it copies the image's system
 * directories onto it (or, for a clone, the source's system disk and, when asked, its data disk). Later
 * starts find the marker and change nothing, so what the user installed survives power-off.
 */
export function seedScript(clone: { copyData: boolean } | null): string {
  const fromImage = SYSTEM_DIRECTORIES.map((directory) => `[ -e /${directory} ] && cp -a /${directory} ${SYSTEM_MOUNT}/ || mkdir -p ${SYSTEM_MOUNT}/${directory}`);
  return [
    'set -e',
    `if [ -f ${SYSTEM_MOUNT}/${SEEDED_MARKER} ]; then exit 0; fi`,
    ...(clone ? [`cp -a ${CLONE_SYSTEM_MOUNT}/. ${SYSTEM_MOUNT}/`, ...(clone.copyData ? [`cp -a ${CLONE_DATA_MOUNT}/. ${DATA_DISK_MOUNT_PATH}/`] : [])] : fromImage),
    `mkdir -p ${SYSTEM_MOUNT}/root/slg-data`,
    `touch ${SYSTEM_MOUNT}/${SEEDED_MARKER}`,
  ].join('\n');
}

/**
 * PID 1 of a machine on Kubernetes. The system disk keeps what the user changed, but root's password
 * comes from the Secret at every start (the platform's copy, which setPassword keeps current), and
 * authorized_keys from the Secret's file unless one is there already; then the tools and sshd as on
 * Docker (machine-files.ts).
 */
const KUBERNETES_MACHINE_SETUP = [
  'set -e',
  `printf 'root:%s\\n' "$SLG_ROOT_PASSWORD" | chpasswd`,
  `mkdir -p /run/sshd ${DATA_DISK_MOUNT_PATH} /root/.ssh`,
  `if [ -s ${SECRET_MOUNT}/authorized_keys ] && [ ! -f /root/.ssh/authorized_keys ]; then install -m 600 ${SECRET_MOUNT}/authorized_keys /root/.ssh/authorized_keys; fi`,
  "[ -f /etc/ssh/ssh_host_ed25519_key ] || ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/ssh_host_ed25519_key",
];
export const KUBERNETES_MACHINE_INIT = [
  ...KUBERNETES_MACHINE_SETUP,
  TOOLS_START,
  'exec /usr/sbin/sshd -D -e -o HostKey=/etc/ssh/ssh_host_ed25519_key -o PermitRootLogin=yes -o PasswordAuthentication=yes',
].join('\n');

/** What a command machine's container reports when it ends (its termination message), with the command's exit code. */
export const COMMAND_EXITED_MESSAGE = 'slg-command-exited';
/** Where the system disk records the run whose command ended: `<run> <pod uid> <exit code>`. */
const COMMAND_EXIT_FILE = '/var/lib/slg/command-exit';
const TERMINATION_MESSAGE = '/dev/termination-log';

/**
 * PID 1 of a command machine (an elastic container) on Kubernetes, where a StatefulSet's pod restarts
 * whatever ends: the command runs once per run (SLG_RUN, which `start` renews), and its exit code goes
 * to the system disk and the termination message. A container the kubelet restarts after that finds the
 * run recorded: in the same pod it idles without sshd (its last state still says how the command ended,
 * and the previous container's log is the command's output); in a new pod of the run (evicted,
 * deleted) it ends at once with the recorded code, for the new pod's status to say it. The record is
 * written as 137 (killed) before the command starts, so a container killed mid-run does not run it again.
 */
export const KUBERNETES_COMMAND_INIT = [
  ...KUBERNETES_MACHINE_SETUP,
  PROFILE_WRITE,
  `mark=${COMMAND_EXIT_FILE}`,
  'if [ -f "$mark" ] && [ "$(cut -d " " -f 1 "$mark")" = "$SLG_RUN" ]; then',
  '  code="$(cut -d " " -f 3 "$mark")"',
  `  printf '${COMMAND_EXITED_MESSAGE} %s' "$code" > ${TERMINATION_MESSAGE}`,
  '  if [ "$(cut -d " " -f 2 "$mark")" = "$SLG_POD_UID" ]; then',
  "    trap 'exit 0' TERM INT",
  '    while :; do sleep 3600 & wait $!; done',
  '  fi',
  `  printf '%s %s %s\\n' "$SLG_RUN" "$SLG_POD_UID" "$code" > "$mark"`,
  '  exit "$code"',
  'fi',
  TOOLS_START,
  SSHD_BESIDE_COMMAND,
  'mkdir -p "$(dirname "$mark")"',
  `printf '%s %s 137\\n' "$SLG_RUN" "$SLG_POD_UID" > "$mark"`,
  `printf '${COMMAND_EXITED_MESSAGE} 137' > ${TERMINATION_MESSAGE}`,
  'slg_command="$SLG_COMMAND"',
  'unset SLG_COMMAND SLG_PROFILE',
  'set +e',
  '/bin/sh -c "$slg_command"',
  'code=$?',
  `printf '%s %s %s\\n' "$SLG_RUN" "$SLG_POD_UID" "$code" > "$mark"`,
  `printf '${COMMAND_EXITED_MESSAGE} %s' "$code" > ${TERMINATION_MESSAGE}`,
  'exit "$code"',
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
  /** The system disk's claim (systemClaimName) and the reinstall it was made for (ms since the epoch; null: the first). */
  systemClaim: string;
  reinstalledFor: number | null;
  /** A clone's first start copies the source's disks (same node); dropped once it ran. */
  cloneFrom: { instanceId: string; systemClaim: string; copyData: boolean } | null;
  /** An elastic container's command and environment (absent from shapes kept before they existed). */
  command?: string | null;
  env?: Record<string, string>;
  /** The command's current run (ms since the epoch it was asked for): the command runs once per run. */
  run?: number;
  /** The 文件存储 at /root/slg-fs: the sub-path `key` of the ReadWriteMany claim `claim` (absent from shapes kept before it existed). */
  fileStorage?: { claim: string; key: string } | null;
  /** The datasets under /root/slg-pub: sub-paths `source` of the same claim, read-only (absent from shapes kept before datasets). */
  datasets?: { claim: string; mounts: DatasetMount[] } | null;
}

/** The machine: a StatefulSet of at most one pod, pinned to its node, with the data disk and the Secret mounted. */
export function statefulSetOf(shape: MachineShape): IStatefulSet {
  const names = objectNames(shape.instanceId);
  const withGpus = shape.gpuNum > 0;
  const cpu = String(withGpus ? shape.cpuCores : NO_GPU_CPU_CORES);
  const memory = `${withGpus ? shape.memoryGb : NO_GPU_MEMORY_GB}Gi`;
  const limits: Record<string, string> = { cpu, memory, ...(withGpus ? { [GPU_RESOURCE]: String(shape.gpuNum) } : {}) };
  const command = shape.command ?? null;
  const env = userEnv(shape.env);
  const profile = envProfile(env);
  // One volume of the claim serves the store and the datasets alike.
  const storageClaim = shape.fileStorage?.claim ?? shape.datasets?.claim ?? null;
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
            initContainers: [
              {
                name: 'seed-system-disk',
                image: shape.image,
                command: ['/bin/sh', '-c', seedScript(shape.cloneFrom)],
                volumeMounts: [
                  { name: 'system', mountPath: SYSTEM_MOUNT },
                  { name: 'data', mountPath: DATA_DISK_MOUNT_PATH },
                  ...(shape.cloneFrom
                    ? [
                        { name: 'clone-system', mountPath: CLONE_SYSTEM_MOUNT, readOnly: true },
                        ...(shape.cloneFrom.copyData ? [{ name: 'clone-data', mountPath: CLONE_DATA_MOUNT, readOnly: true }] : []),
                      ]
                    : []),
                ],
              },
            ],
            containers: [
              {
                name: MACHINE_CONTAINER,
                image: shape.image,
                command: ['/bin/sh', '-c', command === null ? (profile === '' ? KUBERNETES_MACHINE_INIT : `${PROFILE_WRITE}\n${KUBERNETES_MACHINE_INIT}`) : KUBERNETES_COMMAND_INIT],
                env: [
                  ...Object.entries(env).map(([name, value]) => ({ name, value })),
                  { name: 'SLG_INSTANCE_ID', value: shape.instanceId },
                  { name: 'SLG_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: names.secret, key: 'password' } } },
                  ...(profile === '' ? [] : [{ name: 'SLG_PROFILE', value: profile }]),
                  ...(command === null
                    ? []
                    : [
                        { name: 'SLG_COMMAND', value: command },
                        { name: 'SLG_RUN', value: String(shape.run ?? 0) },
                        { name: 'SLG_POD_UID', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
                      ]),
                  // CUDA images set it to `all`: without a GPU limit the runtime must not hand over every GPU.
                  ...(withGpus ? [] : [{ name: 'NVIDIA_VISIBLE_DEVICES', value: 'void' }]),
                ],
                ports: [{ name: 'ssh', containerPort: 22 }],
                resources: { requests: limits, limits },
                volumeMounts: [
                  ...SYSTEM_DIRECTORIES.map((directory) => ({ name: 'system', mountPath: `/${directory}`, subPath: directory })),
                  { name: 'data', mountPath: DATA_DISK_MOUNT_PATH },
                  { name: 'secret', mountPath: SECRET_MOUNT, readOnly: true },
                  ...(shape.fileStorage ? [{ name: FILE_STORAGE_VOLUME, mountPath: FILE_STORAGE_MOUNT, subPath: shape.fileStorage.key }] : []),
                  ...(shape.datasets?.mounts ?? []).map((dataset) => ({ name: FILE_STORAGE_VOLUME, mountPath: datasetMountPath(dataset.name), subPath: dataset.source, readOnly: true })),
                ],
                readinessProbe: { tcpSocket: { port: 22 }, periodSeconds: 2 },
              },
            ],
            volumes: [
              { name: 'system', persistentVolumeClaim: { claimName: shape.systemClaim } },
              { name: 'data', persistentVolumeClaim: { claimName: names.dataClaim } },
              { name: 'secret', secret: { secretName: names.secret, defaultMode: 0o400 } },
              ...(storageClaim ? [{ name: FILE_STORAGE_VOLUME, persistentVolumeClaim: { claimName: storageClaim } }] : []),
              ...(shape.cloneFrom
                ? [
                    { name: 'clone-system', persistentVolumeClaim: { claimName: shape.cloneFrom.systemClaim, readOnly: true } },
                    ...(shape.cloneFrom.copyData ? [{ name: 'clone-data', persistentVolumeClaim: { claimName: objectNames(shape.cloneFrom.instanceId).dataClaim, readOnly: true } }] : []),
                  ]
                : []),
            ],
          },
        },
      },
    }),
  ).toJSON() as IStatefulSet;
}

/** A disk of the machine: the data disk (`dataDiskGb`, grown through the claim) or a system disk of SYSTEM_DISK_GB. */
export function claimOf(instanceId: string, namespace: string, disk: { kind: 'data'; sizeGb: number } | { kind: 'system'; name: string }, storageClass: string | undefined): IPersistentVolumeClaim {
  const sizeGb = disk.kind === 'data' ? disk.sizeGb : SYSTEM_DISK_GB;
  return validated(
    new PersistentVolumeClaim({
      metadata: { name: disk.kind === 'data' ? objectNames(instanceId).dataClaim : disk.name, namespace, labels: { ...labelsOf(instanceId), [DISK_LABEL]: disk.kind } },
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

/** Where a Job's helper reports what it measured (the kubelet hands the file's text to the pod's status). */
const TERMINATION_LOG = '/dev/termination-log';

/** A Job of one pod on one node that runs once and is kept (with its pod) as the record of what it did. */
function jobOf(args: { name: string; namespace: string; labels: Record<string, string>; hostId: string; initContainers: IPodSpec['initContainers']; containers: IPodSpec['containers']; volumes: NonNullable<IPodSpec['volumes']> }): IJob {
  return validated(
    new Job({
      metadata: { name: args.name, namespace: args.namespace, labels: args.labels },
      spec: {
        backoffLimit: 0,
        suspend: false,
        template: {
          metadata: { labels: args.labels },
          spec: {
            restartPolicy: 'Never',
            nodeSelector: { [HOSTNAME_LABEL]: args.hostId },
            enableServiceLinks: false,
            ...(args.initContainers ? { initContainers: args.initContainers } : {}),
            containers: args.containers,
            volumes: args.volumes,
          },
        },
      },
    }),
  ).toJSON() as IJob;
}

export const saveImageJobName = (imageUid: string) => `slg-image-${imageUid}`;
export const copyJobName = (taskUid: string) => `slg-copy-${taskUid}`;

/**
 * What the save-image Job's first step runs, in the machine's own image beside its system disk: the
 * build context is what changed since the disk was seeded (files whose status changed after the
 * marker: what apt, pip and the user wrote) plus the list of the image's paths the disk no longer has,
 * so the image is the machine's image and one small layer on top. It reports that layer's size (KB).
 */
export function saveImagePrepareScript(): string {
  const directories = SYSTEM_DIRECTORIES.join(' ');
  return [
    'set -e',
    'mkdir -p /build/context',
    'cd /workspace',
    `find ${directories} -xdev -cnewer ${SEEDED_MARKER} -print0 | tar --null --no-recursion -T - -cf - | tar -C /build/context -xpf -`,
    `(cd / && find ${directories} -xdev 2>/dev/null | sort) > /build/image.list`,
    `(find ${directories} -xdev 2>/dev/null | sort) > /build/disk.list`,
    'comm -23 /build/image.list /build/disk.list > /build/context/.slg-deleted',
    `printf 'FROM %s\\nCOPY . /\\nRUN cd / && xargs -d "\\\\n" -r rm -rf < /.slg-deleted && rm -f /.slg-deleted\\n' "$BASE_IMAGE" > /build/Dockerfile`,
    `du -sk /build/context | cut -f1 > ${TERMINATION_LOG}`,
  ].join('\n');
}

/**
 * Save image: a Job on the machine's node builds the image with kaniko (the machine's image, what
 * changed on its system disk over it: saveImagePrepareScript) and pushes it to the registry.
 */
export function saveImageJobOf(args: { namespace: string; hostId: string; imageUid: string; machineImage: string; systemClaim: string; destination: string; builderImage: string; insecureRegistry: boolean }): IJob {
  return jobOf({
    name: saveImageJobName(args.imageUid),
    namespace: args.namespace,
    labels: { [IMAGE_LABEL]: args.imageUid },
    hostId: args.hostId,
    initContainers: [
      {
        name: 'prepare',
        image: args.machineImage,
        command: ['/bin/sh', '-c', saveImagePrepareScript()],
        env: [{ name: 'BASE_IMAGE', value: args.machineImage }],
        volumeMounts: [
          { name: 'system', mountPath: '/workspace', readOnly: true },
          { name: 'build', mountPath: '/build' },
        ],
      },
    ],
    containers: [
      {
        name: 'build',
        image: args.builderImage,
        args: ['--context=dir:///build/context', '--dockerfile=/build/Dockerfile', `--destination=${args.destination}`, '--single-snapshot', ...(args.insecureRegistry ? ['--insecure', '--insecure-pull'] : [])],
        volumeMounts: [{ name: 'build', mountPath: '/build' }],
      },
    ],
    volumes: [
      { name: 'system', persistentVolumeClaim: { claimName: args.systemClaim, readOnly: true } },
      { name: 'build', emptyDir: {} },
    ],
  });
}

/** A data copy on the target's node, both data disks mounted (a ReadWriteOnce claim may be mounted by every pod of its node). */
export function copyJobOf(args: { taskUid: string; namespace: string; hostId: string; fromInstanceId: string; toInstanceId: string; relative: string; helperImage: string }): IJob {
  return jobOf({
    name: copyJobName(args.taskUid),
    namespace: args.namespace,
    labels: { ...labelsOf(args.toInstanceId), [COPY_LABEL]: args.taskUid },
    hostId: args.hostId,
    initContainers: undefined,
    containers: [
      {
        name: 'copy',
        image: args.helperImage,
        command: ['/bin/sh', '-c', copyDataScript(args.relative, `> ${TERMINATION_LOG}`)],
        volumeMounts: [
          { name: 'from', mountPath: '/from', readOnly: true },
          { name: 'to', mountPath: '/to' },
        ],
      },
    ],
    volumes: [
      { name: 'from', persistentVolumeClaim: { claimName: objectNames(args.fromInstanceId).dataClaim, readOnly: true } },
      { name: 'to', persistentVolumeClaim: { claimName: objectNames(args.toInstanceId).dataClaim } },
    ],
  });
}
