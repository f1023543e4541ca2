import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dockerClient, statusOf } from '../compute/docker/engines.js';
import { DEFAULT_BASE_IMAGE } from '../config.js';

/**
 * `npm run images`: builds the platform's base image into the Docker engine of DOCKER_HOST (default
 * the local socket) from Debian's packages, without any registry: debootstrap a Debian root with
 * openssh-server, python3 and Jupyter (Debian's notebook), then `docker import` it. The root file system is kept as a tarball in
 * IMAGES_CACHE_DIR, so a second engine (or a wiped one) gets the image in seconds; an engine that
 * has the image already is left alone (`--force` rebuilds).
 */
const SUITE = 'bookworm';
const PACKAGES = ['openssh-server', 'python3', 'iproute2', 'ca-certificates', 'procps', 'less', 'vim-tiny', 'curl', 'wget', 'tmux'];
/** Installed afterwards with apt inside the new root: debootstrap's own resolver cannot place their dependencies. */
const APT_PACKAGES = ['jupyter-notebook', 'python3-ipykernel'];
/** What the image is built from: an engine or a cache holding another build is rebuilt. */
const RECIPE = createHash('sha256').update(`${SUITE}\n${PACKAGES.join(',')}\n${APT_PACKAGES.join(',')}`).digest('hex').slice(0, 12);
const RECIPE_LABEL = 'slg.io/image-recipe';

function sh(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${command} 退出码 ${code}`))));
  });
}

/** Debootstraps the root file system and packs it as a tarball (the slow part, minutes; done once per cache). */
async function buildRootTarball(tarball: string, mirror: string): Promise<void> {
  const root = `${tarball}.root`;
  rmSync(root, { recursive: true, force: true });
  console.log(`debootstrap ${SUITE}（${mirror}）：${PACKAGES.join(', ')}`);
  await sh('debootstrap', ['--variant=minbase', `--include=${PACKAGES.join(',')}`, SUITE, root, mirror]);
  console.log(`apt-get install ${APT_PACKAGES.join(' ')}`);
  writeFileSync(join(root, 'etc/apt/sources.list'), `deb ${mirror} ${SUITE} main\n`);
  copyFileSync('/etc/resolv.conf', join(root, 'etc/resolv.conf'));
  await sh('chroot', [root, 'sh', '-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${APT_PACKAGES.join(' ')} >/dev/null && apt-get clean`]);
  writeFileSync(join(root, 'etc/resolv.conf'), '');
  // Every machine makes its own host keys at first boot; root may log in with a password (the platform sets it).
  await sh('sh', ['-c', `rm -f ${root}/etc/ssh/ssh_host_* && mkdir -p ${root}/etc/ssh/sshd_config.d ${root}/root/slg-data && rm -rf ${root}/var/lib/apt/lists/* ${root}/var/cache/apt/*.bin`]);
  writeFileSync(join(root, 'etc/ssh/sshd_config.d/slg.conf'), 'PermitRootLogin yes\nPasswordAuthentication yes\nUseDNS no\n');
  writeFileSync(join(root, 'etc/motd'), '欢迎使用算力港。数据盘挂载在 /root/slg-data，关机、无卡模式与变更 GPU 数量后都会保留。\n');
  await sh('tar', ['-C', root, '-cf', `${tarball}.partial`, '.']);
  await sh('mv', [`${tarball}.partial`, tarball]);
  rmSync(root, { recursive: true, force: true });
}

export async function buildImages(options: { engineUrl: string; image: string; cacheDir: string; mirror: string; force: boolean }): Promise<void> {
  const docker = dockerClient(options.engineUrl, null, 30 * 60_000);
  if (!options.force) {
    try {
      const existing = await docker.getImage(options.image).inspect();
      if (existing.Config.Labels?.[RECIPE_LABEL] === RECIPE) {
        console.log(`${options.image} 已在 ${options.engineUrl} 中，跳过（--force 重新构建）`);
        return;
      }
      console.log(`${options.image} 的软件包已变化，重新构建`);
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }
  mkdirSync(options.cacheDir, { recursive: true });
  const tarball = join(options.cacheDir, `debian-${SUITE}-rootfs-${RECIPE}.tar`);
  if (!existsSync(tarball) || options.force) await buildRootTarball(tarball, options.mirror);
  const [repo, tag = 'latest'] = options.image.split(':');
  console.log(`导入 ${options.image} 到 ${options.engineUrl}`);
  const stream = await docker.importImage(createReadStream(tarball), { repo, tag, changes: ['CMD ["/bin/bash"]', 'ENV LANG=C.UTF-8', `LABEL ${RECIPE_LABEL}=${RECIPE}`] });
  await new Promise<void>((done, fail) => docker.modem.followProgress(stream, (error: Error | null) => (error ? fail(error) : done())));
  const image = await docker.getImage(options.image).inspect();
  console.log(`${options.image} 就绪（${(image.Size / 1e6).toFixed(0)} MB）`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const engineUrl = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
  buildImages({
    engineUrl,
    image: process.env.DOCKER_BASE_IMAGE ?? DEFAULT_BASE_IMAGE,
    cacheDir: resolve(process.env.IMAGES_CACHE_DIR ?? fileURLToPath(new URL('../../../../.data/images', import.meta.url))),
    mirror: process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian',
    force: process.argv.includes('--force'),
  }).catch((error: unknown) => {
    console.error(`构建镜像失败：${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
