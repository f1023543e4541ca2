import type Docker from 'dockerode';
import { DriverError } from '../driver.js';
import { INSTANCE_LABEL, statusOf } from './engines.js';

/** A service forwarder's labels: the instance (as every object of the driver), the port inside it, the host port and the address it forwards to. */
export const SERVICE_PORT_LABEL = 'slg.io/service-port';
const PUBLIC_PORT_LABEL = 'slg.io/public-port';
const TARGET_LABEL = 'slg.io/target';
/** The port a forwarder listens on inside its own container; the host's public port is bound to it. */
const LISTEN_PORT = 8000;

/**
 * A TCP relay in Python's standard library (every platform image has python3): each connection to
 * LISTEN_PORT is joined to TARGET:PORT, both directions copied until either side ends.
 */
const RELAY = `
import asyncio, sys
target, port, listen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
async def pipe(reader, writer):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except OSError:
        pass
async def handle(client_reader, client_writer):
    try:
        service_reader, service_writer = await asyncio.open_connection(target, port)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(pipe(client_reader, service_writer), pipe(service_reader, client_writer))
    service_writer.close()
    client_writer.close()
async def main():
    server = await asyncio.start_server(handle, '0.0.0.0', listen)
    async with server:
        await server.serve_forever()
asyncio.run(main())
`;

export function isServiceForwarder(labels: Record<string, string>): boolean {
  return labels[SERVICE_PORT_LABEL] !== undefined;
}

/** The machine container's address on its engine's network, or null when it has none (not running). */
export function addressOf(container: Docker.ContainerInfo | undefined): string | null {
  if (!container || container.State !== 'running') return null;
  const networks = Object.values(container.NetworkSettings?.Networks ?? {});
  return networks.find((network) => network.IPAddress)?.IPAddress ?? null;
}

/**
 * 自定义服务 on a Docker host: one small forwarder container per exposed port, labelled with the
 * instance, whose listening port is bound to the service's public port on the host — the host port
 * binding the instance's own container cannot gain while it runs. A forwarder relays to the
 * instance container's current address; an address changes when the container starts again, so
 * `sync` (run on every observation) re-points forwarders and stops those of a machine that is not
 * running, and the containers themselves are the record of what is exposed.
 */
export class ServiceForwarders {
  constructor(private readonly image: string) {}

  private async forwardersOf(docker: Docker, instanceId: string): Promise<Docker.ContainerInfo[]> {
    const list = await docker.listContainers({ all: true, filters: { label: [`${INSTANCE_LABEL}=${instanceId}`, SERVICE_PORT_LABEL] } });
    return list;
  }

  private async create(docker: Docker, instanceId: string, service: { port: number; publicPort: number }, target: string | null): Promise<void> {
    const container = await docker.createContainer({
      name: `${instanceId}-svc-${service.port}`,
      Image: this.image,
      Entrypoint: ['python3', '-c', RELAY],
      Cmd: [target ?? '0.0.0.0', String(service.port), String(LISTEN_PORT)],
      Labels: { [INSTANCE_LABEL]: instanceId, [SERVICE_PORT_LABEL]: String(service.port), [PUBLIC_PORT_LABEL]: String(service.publicPort), [TARGET_LABEL]: target ?? '' },
      ExposedPorts: { [`${LISTEN_PORT}/tcp`]: {} },
      HostConfig: {
        PortBindings: { [`${LISTEN_PORT}/tcp`]: [{ HostPort: String(service.publicPort) }] },
        Memory: 64 * 1024 ** 2,
        NanoCpus: 500_000_000,
      },
    });
    if (target) await startBinding(container, service.publicPort);
  }

  /** Exposes `port` of the instance on `publicPort` of its host; forwarding starts now when the machine runs (`target`), else when it next does. */
  async expose(docker: Docker, instanceId: string, service: { port: number; publicPort: number }, target: string | null): Promise<void> {
    const existing = (await this.forwardersOf(docker, instanceId)).filter((item) => item.Labels[SERVICE_PORT_LABEL] === String(service.port));
    const current = existing.find((item) => item.Labels[PUBLIC_PORT_LABEL] === String(service.publicPort));
    if (current && (current.State === 'running' || !target) && (current.Labels[TARGET_LABEL] ?? '') === (target ?? '')) return;
    for (const item of existing) await removeForwarder(docker, item.Id);
    await this.create(docker, instanceId, service, target);
  }

  async unexpose(docker: Docker, instanceId: string, port: number): Promise<void> {
    const existing = (await this.forwardersOf(docker, instanceId)).filter((item) => item.Labels[SERVICE_PORT_LABEL] === String(port));
    for (const item of existing) await removeForwarder(docker, item.Id);
  }

  /** Stops every forwarder of an instance whose machine is stopping, before its address can go to another machine. */
  async stopAll(docker: Docker, instanceId: string): Promise<void> {
    for (const item of await this.forwardersOf(docker, instanceId)) {
      if (item.State === 'running') await docker.getContainer(item.Id).kill().catch(ignoreGone);
    }
  }

  /**
   * Brings an instance's forwarders in line with its machine: relaying to its current address while
   * it runs, stopped otherwise. Another process doing the same at once may win a re-creation; the
   * loser leaves it for the next pass.
   */
  async sync(docker: Docker, instanceId: string, machine: Docker.ContainerInfo | undefined, forwarders: readonly Docker.ContainerInfo[]): Promise<void> {
    const target = addressOf(machine);
    for (const forwarder of forwarders) {
      const running = forwarder.State === 'running';
      try {
        if (!target) {
          if (running) await docker.getContainer(forwarder.Id).kill().catch(ignoreGone);
          continue;
        }
        if (running && forwarder.Labels[TARGET_LABEL] === target) continue;
        await removeForwarder(docker, forwarder.Id);
        const service = { port: Number(forwarder.Labels[SERVICE_PORT_LABEL]), publicPort: Number(forwarder.Labels[PUBLIC_PORT_LABEL]) };
        await this.create(docker, instanceId, service, target);
      } catch (error) {
        if (error instanceof DriverError || statusOf(error) === 409 || statusOf(error) === 404) continue;
        throw error;
      }
    }
  }
}

async function startBinding(container: Docker.Container, publicPort: number): Promise<void> {
  try {
    await container.start();
  } catch (error) {
    await container.remove({ force: true }).catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    if (/address already in use|port is already allocated/i.test(message)) throw new DriverError(`主机端口 ${publicPort} 已被占用`, false);
    throw error;
  }
}

async function removeForwarder(docker: Docker, id: string): Promise<void> {
  await docker
    .getContainer(id)
    .remove({ force: true })
    .catch((error: unknown) => {
      if (statusOf(error) !== 404) throw error;
    });
}

function ignoreGone(error: unknown): void {
  const status = statusOf(error);
  if (status !== 304 && status !== 404 && status !== 409) throw error;
}
