import { PRIVATE_IMAGE_REPOSITORY } from '../images.js';

const MANIFEST_TYPES = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
].join(', ');

/**
 * The registry saved images go to (REGISTRY_URL, `host[:port][/path]`), through the Registry HTTP API
 * v2 (the OCI distribution API). A registry on the loopback address is spoken to in plain HTTP, as
 * Docker and kaniko do; every other one over HTTPS.
 */
export class ImageRegistry {
  readonly plainHttp: boolean;
  private readonly host: string;
  private readonly repository: string;

  constructor(private readonly registryUrl: string) {
    const [host = '', ...path] = registryUrl.split('/');
    this.host = host;
    this.repository = [...path, PRIVATE_IMAGE_REPOSITORY].join('/');
    this.plainHttp = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(host);
  }

  /** The image reference a saved image is pushed to and pulled from. */
  reference(imageUid: string): string {
    return `${this.registryUrl}/${PRIVATE_IMAGE_REPOSITORY}:${imageUid}`;
  }

  private manifestUrl(reference: string): string {
    return `${this.plainHttp ? 'http' : 'https'}://${this.host}/v2/${this.repository}/manifests/${reference}`;
  }

  /**
   * Deletes the image's manifest (its layers go at the registry's next garbage collection). An image the
   * registry does not hold counts as deleted.
   */
  async remove(imageUid: string): Promise<void> {
    const head = await fetch(this.manifestUrl(imageUid), { method: 'HEAD', headers: { accept: MANIFEST_TYPES } });
    if (head.status === 404) return;
    const digest = head.headers.get('docker-content-digest');
    if (!head.ok || !digest) throw new Error(`镜像仓库应答 ${head.status}`);
    const deleted = await fetch(this.manifestUrl(digest), { method: 'DELETE' });
    if (deleted.status === 405) throw new Error('镜像仓库不允许删除镜像，请开启删除（REGISTRY_STORAGE_DELETE_ENABLED=true）');
    if (!deleted.ok && deleted.status !== 404) throw new Error(`镜像仓库应答 ${deleted.status}`);
  }
}
