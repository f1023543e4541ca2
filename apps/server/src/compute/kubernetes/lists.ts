import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';

/** Where each kind of the driver is listed (namespaced ones under `namespaces/<ns>/`). */
const PATHS = {
  StatefulSet: { group: '/apis/apps/v1', plural: 'statefulsets' },
  Job: { group: '/apis/batch/v1', plural: 'jobs' },
  Pod: { group: '/api/v1', plural: 'pods' },
  PersistentVolumeClaim: { group: '/api/v1', plural: 'persistentvolumeclaims' },
  Service: { group: '/api/v1', plural: 'services' },
  Node: { group: '/api/v1', plural: 'nodes' },
} as const;
export type ListedKind = keyof typeof PATHS;

/** Asks for metadata only: the server leaves out spec and status (`PartialObjectMetadataList`). */
const METADATA_ONLY = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

/**
 * Lists a kind as plain JSON, straight from the API server. A pass over a thousand machines reads
 * megabytes of objects; client-node's typed deserialisation of them took longer than the request, so
 * the lists `observe` makes skip it (and may ask for metadata only). Refusals are client-node's
 * ApiException, as its own calls throw.
 */
export async function listObjects<T>(kubeConfig: KubeConfig, kind: ListedKind, options: { namespace?: string; labelSelector?: string; metadataOnly?: boolean }): Promise<T[]> {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new ApiException(0, 'KUBECONFIG 中没有当前集群', undefined, {});
  const { group, plural } = PATHS[kind];
  const url = new URL(`${cluster.server.replace(/\/+$/, '')}${group}${options.namespace ? `/namespaces/${options.namespace}` : ''}/${plural}`);
  if (options.labelSelector) url.searchParams.set('labelSelector', options.labelSelector);
  const requestOptions: RequestOptions = { method: 'GET', headers: {} };
  await kubeConfig.applyToHTTPSOptions(requestOptions);
  requestOptions.headers = { ...requestOptions.headers, accept: options.metadataOnly ? METADATA_ONLY : 'application/json' };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = send(url, requestOptions, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.setTimeout(30_000, () => outgoing.destroy(new Error('Kubernetes API 30 秒内没有应答')));
    outgoing.on('error', reject);
    outgoing.end();
  });
  if (status < 200 || status >= 300) throw new ApiException(status, `列出 ${plural} 被拒绝（${status}）`, body.slice(0, 500), {});
  return (JSON.parse(body) as { items?: T[] }).items ?? [];
}
