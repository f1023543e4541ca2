/** 自定义服务: the ports with their addresses, add (refusal on the field), switch protocol, delete naming the address. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buttonByText, buttonsByText, callsTo, failure, findDialog, mockApi, ok, renderPage } from '../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../testing';
import { CustomServiceDialog } from './components/CustomServiceDialog';

afterEach(cleanup);

const HTTP = { port: 6006, protocol: 1, protocolName: 'HTTP', address: 'https://slg-aaaaaaaaaa-6006.bj-a.connect.example.com', createdAt: '2025-01-01T00:00:00Z' };
const TCP = { port: 5432, protocol: 2, protocolName: 'TCP', address: 'bj-a.connect.example.com:41234', createdAt: '2025-01-01T00:00:00Z' };

describe('自定义服务', () => {
  it('lists the addresses, adds a port, shows a refusal on the port field and deletes after naming the address', async () => {
    let ports = [HTTP];
    const { fetchMock } = mockApi({
      'GET /rental/ports': () => ok(ports),
      'POST /rental/map_port': (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { port: number; protocol: number };
        if (body.port === 6006) return failure(409, 40901, '端口 6006 已添加为HTTP服务，如需更换协议请修改');
        ports = [...ports, { ...TCP, port: body.port }];
        return ok({ ...TCP, port: body.port });
      },
      'DELETE /rental/map_port': () => {
        ports = ports.filter((port) => port.port !== 6006);
        return ok(null);
      },
    });
    renderPage(<CustomServiceDialog instance={RUNNING_INSTANCE} open onClose={() => undefined} />);
    const dialog = await findDialog();
    expect(await within(dialog).findByText(HTTP.address, { selector: 'a[href], a[href] *' })).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('端口'), { target: { value: '22' } });
    fireEvent.click(buttonByText('添加', dialog));
    expect(await within(dialog).findByText('22 为SSH保留端口，请使用其他端口')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/rental/map_port')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('端口'), { target: { value: '6006' } });
    fireEvent.click(buttonByText('添加', dialog));
    expect(await within(dialog).findByText('端口 6006 已添加为HTTP服务，如需更换协议请修改')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('端口'), { target: { value: '5432' } });
    fireEvent.click(within(dialog).getByText('TCP'));
    fireEvent.click(buttonByText('添加', dialog));
    expect(await within(dialog).findByText('bj-a.connect.example.com:41234')).toBeTruthy();
    const [, init] = callsTo(fetchMock, 'POST', '/rental/map_port').at(-1) ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ instanceId: 'slg-aaaaaaaaaa', port: 5432, protocol: 2 });

    fireEvent.click(buttonsByText('删除', dialog)[0] as HTMLElement);
    const confirm = await screen.findByText(`删除后将不能再通过 ${HTTP.address} 访问该端口，实例内的服务不受影响。`);
    expect(confirm).toBeTruthy();
    fireEvent.click(buttonByText('删除端口'));
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE', '/rental/map_port')).toHaveLength(1));
    const [url] = callsTo(fetchMock, 'DELETE', '/rental/map_port')[0] ?? [];
    expect(new URL(String(url), 'http://localhost').searchParams.get('port')).toBe('6006');
    await waitFor(() => expect(within(dialog).queryByText(HTTP.address, { selector: 'a[href], a[href] *' })).toBeNull());
  });
});
