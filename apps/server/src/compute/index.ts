import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { ComputeRuntime } from '../deps.js';
import type { ComputeDriver } from './driver.js';
import { DockerDriver } from './docker/driver.js';
import { DockerEngines } from './docker/engines.js';
import { SimDriver } from './sim/driver.js';
import { KubeConfig } from '@kubernetes/client-node';
import { KubernetesDriver } from './kubernetes/driver.js';

/** The driver COMPUTE_DRIVER names. */
export function createDriver(config: Config, db: Database, now: () => Date): ComputeDriver {
  if (config.computeDriver === 'docker') {
    const { docker } = config.compute;
    return new DockerDriver({
      db,
      engines: new DockerEngines(db, config.jwtSecret, docker.publicAddress),
      baseImage: docker.baseImage,
      sshPorts: docker.sshPorts,
      storageRoot: config.storageRoot,
      ...(docker.registryUrl ? { registryUrl: docker.registryUrl } : {}),
    });
  }
  if (config.computeDriver === 'kubernetes') {
    const { kubernetes, docker } = config.compute;
    // KUBECONFIG, else ~/.kube/config, else the service account of the pod the platform runs in.
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromDefault();
    return new KubernetesDriver({
      db,
      kubeConfig,
      namespace: kubernetes.namespace,
      serviceType: kubernetes.serviceType,
      builderImage: kubernetes.builderImage,
      nodePorts: kubernetes.nodePorts,
      baseImage: docker.baseImage,
      ...(kubernetes.storageClass ? { storageClass: kubernetes.storageClass } : {}),
      ...(kubernetes.storageClaim ? { storageClaim: kubernetes.storageClaim } : {}),
      ...(docker.registryUrl ? { registryUrl: docker.registryUrl } : {}),
    });
  }
  return new SimDriver({ db, now, seconds: config.compute.simSeconds, sshHost: config.compute.sshHost });
}

/** The configured driver, with a wake signal the process's reconciler loop listens to. */
export function createComputeRuntime(config: Config, db: Database, now: () => Date): ComputeRuntime & { onWake(listener: () => void): void } {
  const listeners: (() => void)[] = [];
  return {
    driver: createDriver(config, db, now),
    wake: () => listeners.forEach((listener) => listener()),
    onWake: (listener) => {
      listeners.push(listener);
    },
  };
}
