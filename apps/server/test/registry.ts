import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectSoon } from './prometheus.js';

/** Debian's Docker registry (`apt-get install docker-registry`, the CNCF distribution registry), for saved images on Kubernetes; CI installs it. */
export const registryBinary = ['/usr/bin/docker-registry'].find((path) => existsSync(path));

/**
 * A real registry on the loopback address (Docker and kaniko speak plain HTTP to it), storing in a
 * temporary directory, deletes allowed. Its port is one of 29900-29999, below the ephemeral range.
 */
export async function startRegistry(): Promise<{ address: string; stop: () => void }> {
  if (!registryBinary) throw new Error('没有找到 docker-registry：CI 必须安装 Debian 的 docker-registry 软件包');
  const directory = mkdtempSync(join(tmpdir(), 'slg-registry-'));
  const port = 29_900 + Math.floor(Math.random() * 100);
  writeFileSync(
    join(directory, 'config.yml'),
    ['version: 0.1', 'log: { level: error }', 'storage:', `  filesystem: { rootdirectory: ${join(directory, 'data')} }`, '  delete: { enabled: true }', `http: { addr: "127.0.0.1:${port}" }`].join('\n'),
  );
  const child = spawn(registryBinary, ['serve', join(directory, 'config.yml')], { stdio: 'ignore' });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(directory, { recursive: true, force: true });
  };
  const address = `127.0.0.1:${port}`;
  try {
    await expectSoon(async () => (await fetch(`http://${address}/v2/`)).status === 200, 'the registry answers');
  } catch (error) {
    stop();
    throw error;
  }
  return { address, stop };
}
