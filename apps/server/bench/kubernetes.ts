import { DEFAULT_BASE_IMAGE, DEFAULT_IMAGE_BUILDER } from '../src/config.js';
import { KubernetesDriver } from '../src/compute/kubernetes/driver.js';
import { FakeKubeApiServer } from '../test/kube-apiserver.js';
import { putMachines } from '../test/kube-fleet.js';
import type { TimedScenario } from './scenarios.js';

const MACHINES = 1000;
const NAMESPACE = 'slg-bench';

/**
 * One reconciler pass's view of 1,000 machines on the Kubernetes driver: `observe` lists StatefulSets,
 * pods, claims, Services and nodes once each from the fake API server of test/kube-apiserver.ts (a
 * test double, objects only, over HTTP on this machine) and works out every machine's state.
 */
export const kubernetesObserveScenario: TimedScenario = {
  kind: 'timed',
  name: 'kubernetes-observe',
  title: `observe ${MACHINES} machines on the Kubernetes driver (fake API server)`,
  server: 'app',
  targets: { maxP95Ms: 200 },
  runs: 20,
  prepare: async (context) => {
    const hostId = 'k8s-bench-node';
    const cluster = new FakeKubeApiServer({
      namespace: NAMESPACE,
      nodes: [{ name: hostId, labels: {}, allocatable: { cpu: '64', memory: '512Gi', gpus: 8 }, ready: 'True' }],
      allowVolumeExpansion: true,
      nodePorts: { min: 30_000, max: 32_767 },
      kubelet: false,
    });
    const url = await cluster.start();
    const ids = putMachines(cluster, { namespace: NAMESPACE, hostId, count: MACHINES, prefix: 'slg-bench' });
    const driver = new KubernetesDriver({
      db: context.database.db,
      kubeConfig: cluster.kubeConfig(url),
      namespace: NAMESPACE,
      serviceType: 'NodePort',
      nodePorts: { min: 30_000, max: 32_767 },
      baseImage: DEFAULT_BASE_IMAGE,
      builderImage: DEFAULT_IMAGE_BUILDER,
    });
    return {
      run: async () => {
        const seen = await driver.observe(ids);
        if (seen.get(ids[0] ?? '')?.state !== 'running') throw new Error(`observe saw ${JSON.stringify(seen.get(ids[0] ?? ''))}`);
      },
      cleanup: () => cluster.close(),
    };
  },
};
