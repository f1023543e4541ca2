import { claimOf, serviceOf, statefulSetOf, type MachineShape } from '../src/compute/kubernetes/manifests.js';
import type { FakeKubeApiServer, KubeObject } from './kube-apiserver.js';

/** One machine's shape as the driver keeps it, for tests and the bench that store objects directly. */
export function machineShape(overrides: Partial<MachineShape> & Pick<MachineShape, 'instanceId' | 'hostId' | 'namespace'>): MachineShape {
  return {
    image: 'registry.example.com/pytorch:2.5.1',
    imageId: 'pytorch-2.5.1-py3.12-cu124',
    gpuNum: 2,
    cpuCores: 32,
    memoryGb: 180,
    replicas: 1,
    systemClaim: `${overrides.instanceId}-system`,
    reinstalledFor: null,
    cloneFrom: null,
    ...overrides,
  };
}

/**
 * Stores `count` machines in a fake API server without its kubelet, as the driver would have made them:
 * every other one running (its pod Ready), the rest stopped; each with its StatefulSet, both claims and
 * its Service. Returns their instance ids.
 */
export function putMachines(cluster: FakeKubeApiServer, options: { namespace: string; hostId: string; count: number; prefix: string }): string[] {
  const ids = Array.from({ length: options.count }, (_, index) => `${options.prefix}${String(index).padStart(5, '0')}`);
  const now = new Date().toISOString();
  for (const [index, instanceId] of ids.entries()) {
    const running = index % 2 === 0;
    const machine = machineShape({ instanceId, hostId: options.hostId, namespace: options.namespace, replicas: running ? 1 : 0 });
    const set = statefulSetOf(machine) as KubeObject;
    set.metadata.annotations = { 'slg.io/shape': JSON.stringify(machine) };
    const objects: KubeObject[] = [
      set,
      claimOf(instanceId, options.namespace, { kind: 'data', sizeGb: 50 }, undefined) as KubeObject,
      claimOf(instanceId, options.namespace, { kind: 'system', name: machine.systemClaim }, undefined) as KubeObject,
      serviceOf(instanceId, options.namespace, 'NodePort', { port: 22, nodePort: 30_000 + (index % 2000) }, []) as KubeObject,
    ];
    if (running) {
      objects.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `${instanceId}-0`, labels: { 'slg.io/instance-id': instanceId } },
        spec: (set.spec?.template as { spec: Record<string, unknown> } | undefined)?.spec,
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] },
      });
    }
    cluster.put(...objects);
  }
  return ids;
}
