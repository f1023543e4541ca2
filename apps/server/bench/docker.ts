import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerDriver } from '../src/compute/docker/driver.js';
import { DockerEngines } from '../src/compute/docker/engines.js';
import { registerDockerEngine } from '../src/compute/docker/register.js';
import { DEFAULT_BASE_IMAGE } from '../src/config.js';
import { sshReady } from '../test/ssh.js';
import type { TimedScenario } from './scenarios.js';

/** The engine the create → SSH scenario rents from (BENCH_DOCKER_HOST, else DOCKER_HOST); without one it is left out. */
export const benchDockerHost = process.env.BENCH_DOCKER_HOST ?? process.env.DOCKER_HOST;

const PASSWORD = 'Bench-Pw-2026';

/**
 * What a renter waits for on a Docker host: the driver asked to create a 1-GPU machine from the public
 * image (built beforehand by `npm run images`) until SSH takes the root password on its published
 * port. The machines are released after the runs. Runs last: registering the engine takes the other
 * hosts of the run's database off the market.
 */
export const createToSshScenario: TimedScenario = {
  kind: 'timed',
  name: 'docker-create-ssh',
  title: `create → SSH reachable on the Docker driver (${benchDockerHost ?? '-'})`,
  server: 'app',
  targets: { maxP95Ms: 5000 },
  runs: 5,
  prepare: async (context) => {
    const engineUrl = benchDockerHost ?? '';
    const db = context.database.db;
    const hostId = await registerDockerEngine(db, { engineUrl, advertisedGpus: 8, zoneId: undefined, gpuModelId: undefined, publicAddress: '127.0.0.1' });
    const driver = new DockerDriver({
      db,
      engines: new DockerEngines(db, 'bench-secret', '127.0.0.1'),
      baseImage: process.env.DOCKER_BASE_IMAGE ?? DEFAULT_BASE_IMAGE,
      sshPorts: { min: 24_000, max: 24_999 },
      // The runs' machines mount no 文件存储.
      storageRoot: join(tmpdir(), 'slg-bench-storage'),
    });
    const made: string[] = [];
    return {
      run: async (run) => {
        const instanceId = `slg-bench${process.pid % 1000}${run}`;
        made.push(instanceId);
        await driver.create({ instanceId, hostId, gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', cpuCores: 1, memoryGb: 1, dataDiskGb: 50, rootPassword: PASSWORD, authorizedKeys: [] });
        for (;;) {
          const seen = (await driver.observe([instanceId])).get(instanceId);
          if (seen?.state === 'error') throw new Error(`${instanceId}: ${seen.reason}`);
          if (seen?.state === 'running' && seen.ssh) {
            await sshReady({ host: seen.ssh.host, port: seen.ssh.port, password: PASSWORD }, 200);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
      cleanup: async () => {
        for (const instanceId of made) await driver.destroy(instanceId);
      },
    };
  },
};
