import { buffer } from 'node:stream/consumers';
import type { Readable } from 'node:stream';
import * as tar from 'tar-stream';

/** Where the data disk is mounted in every machine. */
export const DATA_DISK_PATH = '/root/slg-data';
/** Files the platform leaves in a machine before its first start, applied and removed by the init command. */
export const FIRST_BOOT_DIR = 'etc/slg';

/** Where the tools of 快捷工具 listen on a machine's loopback (the platform's gateway reaches them over SSH). */
/** The exit code of a copy whose source holds nothing at the path. */
export const COPY_SOURCE_MISSING = 3;

/**
 * What a copy helper runs with the source's data disk at /from and the target's at /to: the size (KB) of
 * what it copies goes to `sizeTo` first (stdout on Docker, the termination message on Kubernetes), then
 * the path replaces the target's. `relative` is the path under the data disk ('' for all of it).
 */
export function copyDataScript(relative: string, sizeTo: string): string {
  return relative === ''
    ? `du -sk /from | cut -f1 ${sizeTo}; cp -a /from/. /to/`
    : `[ -e "/from${relative}" ] || exit ${COPY_SOURCE_MISSING}; du -sk "/from${relative}" | cut -f1 ${sizeTo}; mkdir -p "$(dirname "/to${relative}")"; rm -rf "/to${relative}"; cp -a "/from${relative}" "/to${relative}"`;
}

export const MACHINE_TOOL_PORTS = { jupyter: 8888, tensorboard: 6006 } as const;
/** Where TensorBoard reads its event files (AutoDL's convention, so renters' habits carry over). */
export const TENSORBOARD_LOG_DIR = '/root/tf-logs';

/**
 * Jupyter, where the image has it (JupyterLab first, else Debian's notebook), and TensorBoard, where the
 * image has it, reading TENSORBOARD_LOG_DIR: on the machine's loopback only, under
 * `/tools/<instance id>/<tool>/`, with no token — nothing but root
 * inside the machine and the platform's gateway, over SSH, can reach them
 * (modules/rental/tools-gateway.ts). Their logs are /var/log/jupyter.log and /var/log/tensorboard.log.
 */
/** The instance id as the machine's shell knows it: Kubernetes sets SLG_INSTANCE_ID (a pod's hostname is `<id>-0`), Docker makes it the hostname. */
const INSTANCE_ID_IN_SHELL = '${SLG_INSTANCE_ID:-$(hostname)}';
const JUPYTER_OPTIONS = (app: 'ServerApp' | 'NotebookApp') =>
  `--ip=127.0.0.1 --port=${MACHINE_TOOL_PORTS.jupyter} --no-browser --allow-root --notebook-dir=/root --${app}.token= --${app}.password= --${app}.base_url=/tools/${INSTANCE_ID_IN_SHELL}/jupyter/ --${app}.allow_remote_access=True`;
export const TOOLS_START = [
  'if command -v jupyter-lab >/dev/null 2>&1; then',
  `  (nohup jupyter-lab ${JUPYTER_OPTIONS('ServerApp')} >/var/log/jupyter.log 2>&1 &)`,
  'elif command -v jupyter-notebook >/dev/null 2>&1; then',
  `  (nohup jupyter-notebook ${JUPYTER_OPTIONS('NotebookApp')} >/var/log/jupyter.log 2>&1 &)`,
  'fi',
  `mkdir -p ${TENSORBOARD_LOG_DIR}`,
  'if command -v tensorboard >/dev/null 2>&1; then',
  `  (nohup tensorboard --logdir ${TENSORBOARD_LOG_DIR} --host 127.0.0.1 --port ${MACHINE_TOOL_PORTS.tensorboard} --path_prefix /tools/${INSTANCE_ID_IN_SHELL}/tensorboard >/var/log/tensorboard.log 2>&1 &)`,
  'fi',
].join('\n');

/**
 * The environment of a machine (MachineSpec.env) for SSH sessions, which sshd does not pass on: a
 * /etc/profile.d script of exports that the machine's init writes from SLG_PROFILE (PROFILE_WRITE).
 * Names a shell cannot export are left to the main process's environment.
 */
export function envProfile(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map(([name, value]) => `export ${name}='${value.replaceAll("'", "'\\''")}'`)
    .join('\n');
}
/** Variables the platform sets in machines (Docker and Kubernetes), which the user's environment cannot override. */
const PLATFORM_ENV = new Set(['SLG_INSTANCE_ID', 'SLG_ROOT_PASSWORD', 'SLG_PROFILE', 'SLG_COMMAND', 'SLG_RUN', 'SLG_POD_UID', 'NVIDIA_VISIBLE_DEVICES']);

/**
 * The user's environment as a machine gets it: the platform's own variables are left out, among them
 * NVIDIA_VISIBLE_DEVICES, with which a container could ask the NVIDIA runtime for GPUs it was not given.
 */
export function userEnv(env: Readonly<Record<string, string>> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(env ?? {}).filter(([name]) => name !== '' && !name.includes('=') && !PLATFORM_ENV.has(name)));
}

export const PROFILE_WRITE = `if [ -n "\${SLG_PROFILE:-}" ]; then printf '%s\\n' "$SLG_PROFILE" > /etc/profile.d/slg-env.sh; fi`;

const SSHD = '/usr/sbin/sshd -D -e -o HostKey=/etc/ssh/ssh_host_ed25519_key -o PermitRootLogin=yes -o PasswordAuthentication=yes';
/** sshd beside a command: in the background, its log in a file so the command's output (the machine's logs) is the command's alone. */
export const SSHD_BESIDE_COMMAND = `${SSHD} >>/var/log/sshd.log 2>&1 &`;
/** The command (SLG_COMMAND, never interpolated into a script) as the process the machine ends with. */
export const EXEC_COMMAND = ['slg_command="$SLG_COMMAND"', 'unset SLG_COMMAND SLG_PROFILE', 'exec /bin/sh -c "$slg_command"'].join('\n');

const MACHINE_SETUP = [
  'set -e',
  'if [ -f /etc/slg/root-password ]; then chpasswd < /etc/slg/root-password; fi',
  'if [ -f /etc/slg/root-hash ]; then usermod -p "$(cat /etc/slg/root-hash)" root; fi',
  'rm -rf /etc/slg',
  'mkdir -p /run/sshd /root/slg-data',
  // Its own host key, made at first boot: ed25519 only, which takes milliseconds where RSA takes seconds.
  "[ -f /etc/ssh/ssh_host_ed25519_key ] || ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/ssh_host_ed25519_key",
  PROFILE_WRITE,
  TOOLS_START,
];

/**
 * The machine's PID 1, independent of the image's own entrypoint (an operator's image only needs
 * `sshd` and `chpasswd`): on the first boot after create or reset it applies the root password (or,
 * after a reset, the password hash the old system disk had) that the platform left in /etc/slg, then
 * deletes it, so a password changed later survives every restart; it starts Jupyter and TensorBoard
 * where the image has them, then runs sshd in the foreground.
 */
export const MACHINE_INIT = [...MACHINE_SETUP, `exec ${SSHD}`].join('\n');

/** PID 1 of a machine with a command (an elastic container): the same, sshd in the background, then the command, which the machine ends with. */
export const MACHINE_COMMAND_INIT = [...MACHINE_SETUP, SSHD_BESIDE_COMMAND, EXEC_COMMAND].join('\n');

export interface FirstBootFiles {
  /** Plain password, applied with chpasswd. */
  rootPassword?: string;
  /** A crypt(3) hash from a previous system disk, applied with usermod -p. */
  rootHash?: string;
  /** Lines for /root/.ssh/authorized_keys; the file is only written when there are any. */
  authorizedKeys?: string[];
}

/** A tar archive (for `putArchive` at `/`) holding the first-boot files, owned by root with tight modes. */
export async function firstBootArchive(files: FirstBootFiles): Promise<Buffer> {
  const pack = tar.pack();
  const entry = (name: string, body: string, mode: number) => pack.entry({ name, mode, uid: 0, gid: 0 }, body);
  const directory = (name: string, mode: number) => pack.entry({ name, type: 'directory', mode, uid: 0, gid: 0 });
  directory(FIRST_BOOT_DIR, 0o700);
  if (files.rootPassword !== undefined) entry(`${FIRST_BOOT_DIR}/root-password`, `root:${files.rootPassword}\n`, 0o600);
  if (files.rootHash) entry(`${FIRST_BOOT_DIR}/root-hash`, `${files.rootHash}\n`, 0o600);
  if (files.authorizedKeys && files.authorizedKeys.length > 0) {
    directory('root/.ssh', 0o700);
    entry('root/.ssh/authorized_keys', `${files.authorizedKeys.join('\n')}\n`, 0o600);
  }
  pack.finalize();
  return buffer(pack);
}

/** The files of a tar stream (`getArchive`), by their name inside the archive; directories left out. */
export async function filesOfArchive(stream: Readable): Promise<Map<string, string>> {
  const extract = tar.extract();
  const files = new Map<string, string>();
  stream.pipe(extract);
  for await (const item of extract) {
    const body = await buffer(item);
    if (item.header.type === 'file') files.set(item.header.name, body.toString('utf8'));
  }
  return files;
}

/** Root's password hash in an /etc/shadow text (null when it has none, or it is locked). */
export function rootHashOf(shadow: string): string | null {
  const line = shadow.split('\n').find((candidate) => candidate.startsWith('root:'));
  const hash = line?.split(':')[1] ?? '';
  return hash.startsWith('$') ? hash : null;
}

/**
 * The text of a container's log as the engine sends it without a TTY: frames of an 8-byte header
 * (stream, three zero bytes, the payload's length big-endian) and the payload, stdout and stderr interleaved.
 */
export function demultiplexed(log: Buffer): string {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= log.length) {
    const size = log.readUInt32BE(offset + 4);
    parts.push(log.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}
