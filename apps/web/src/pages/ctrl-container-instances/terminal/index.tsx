import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { TERMINAL_CLOSE_CODES } from '@slg/shared';
import { Alert, Button, Result, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../api/client';
import { issueTerminalTicket, terminalSocketUrl } from '../../../api/terminal';
import { LinkButton } from '../../../components/LinkButton';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { COMPUTE_PATHS } from '../paths';
import '@xterm/xterm/css/xterm.css';
import './terminal.css';
import { TERMINAL_TEXTS } from './texts';

const T = TERMINAL_TEXTS;
const INSTANCE_ID_PATTERN = /^slg-[a-z0-9]{10}$/;

type Connection = { state: 'connecting' } | { state: 'connected' } | { state: 'closed'; message: string; refused: boolean };

/**
 * 终端: xterm.js on a WebSocket to the server, which holds an SSH session to the instance. The page
 * asks for a one-minute ticket, connects with the terminal's size, sends keystrokes as binary frames
 * and its size on every resize; the server's words on closing (shell ended, signed out, instance
 * stopped) replace the status. 重新连接 starts a new session.
 */
function TerminalPage() {
  const [params] = useSearchParams();
  const instanceId = params.get('instanceId') ?? '';
  const valid = INSTANCE_ID_PATTERN.test(instanceId);
  const phone = useIsPhone();
  const host = useRef<HTMLDivElement>(null);
  const [connection, setConnection] = useState<Connection>({ state: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const reconnect = useCallback(() => setAttempt((value) => value + 1), []);

  useEffect(() => {
    if (!valid || !host.current) return;
    const element = host.current;
    let disposed = false;
    let socket: WebSocket | undefined;
    const cleanups: (() => void)[] = [];
    setConnection({ state: 'connecting' });
    void (async () => {
      const [{ Terminal }, { FitAddon }] = await Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit')]);
      if (disposed) return;
      const terminal = new Terminal({ cursorBlink: true, fontSize: phone ? 12 : 14, fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono CJK SC", monospace', theme: { background: '#0f1115' } });
      const fit = new FitAddon();
      terminal.loadAddon(fit);
      terminal.open(element);
      fit.fit();
      cleanups.push(() => terminal.dispose());
      let ticket: string;
      try {
        ticket = (await issueTerminalTicket(instanceId)).ticket;
      } catch (error) {
        if (!disposed) setConnection({ state: 'closed', message: isApiError(error) ? error.message : T.lost, refused: true });
        return;
      }
      if (disposed) return;
      socket = new WebSocket(terminalSocketUrl(ticket, { cols: terminal.cols, rows: terminal.rows }));
      socket.binaryType = 'arraybuffer';
      let farewell: string | null = null;
      socket.addEventListener('open', () => {
        setConnection({ state: 'connected' });
        terminal.focus();
      });
      socket.addEventListener('message', (event: MessageEvent<ArrayBuffer | string>) => {
        if (typeof event.data === 'string') {
          const message = (JSON.parse(event.data) as { message?: string }).message;
          if (message) farewell = message;
          return;
        }
        terminal.write(new Uint8Array(event.data));
      });
      socket.addEventListener('close', (event) => {
        if (disposed) return;
        const refused = event.code === TERMINAL_CLOSE_CODES.refused || event.code === TERMINAL_CLOSE_CODES.unavailable;
        setConnection({ state: 'closed', message: farewell ?? (event.code === TERMINAL_CLOSE_CODES.ended ? T.ended : T.lost), refused });
      });
      const encoder = new TextEncoder();
      const input = terminal.onData((data) => socket?.readyState === WebSocket.OPEN && socket.send(encoder.encode(data)));
      const sendSize = terminal.onResize(({ cols, rows }) => socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify({ type: 'resize', cols, rows })));
      const observer = new ResizeObserver(() => fit.fit());
      observer.observe(element);
      cleanups.push(() => {
        input.dispose();
        sendSize.dispose();
        observer.disconnect();
      });
    })();
    return () => {
      disposed = true;
      socket?.close();
      for (const cleanup of cleanups.reverse()) cleanup();
    };
  }, [instanceId, valid, attempt, phone]);

  if (!valid) {
    return <Result status="warning" title={T.missingInstance} extra={<LinkButton to={COMPUTE_PATHS.list}>{T.back}</LinkButton>} />;
  }
  const status =
    connection.state === 'connected' ? <Tag color="success">{T.connected}</Tag> : connection.state === 'connecting' ? <Tag color="processing">{T.connecting}</Tag> : <Tag>{T.closed}</Tag>;
  return (
    <div className="slg-terminal-page">
      <div className="slg-terminal-bar">
        <Space size={8} wrap>
          <LinkButton to={COMPUTE_PATHS.list} icon={<ArrowLeftOutlined />} type="text" aria-label={T.back} />
          <Typography.Text strong>{T.title}</Typography.Text>
          <Typography.Text code className="slg-terminal-id">
            {instanceId}
          </Typography.Text>
          {status}
        </Space>
        {connection.state === 'closed' ? (
          <Button icon={<ReloadOutlined />} onClick={reconnect}>
            {T.reconnect}
          </Button>
        ) : (
          <Typography.Text type="secondary" className="slg-terminal-hint">
            {T.hint}
          </Typography.Text>
        )}
      </div>
      {connection.state === 'closed' ? <Alert type={connection.refused ? 'error' : 'info'} showIcon title={connection.message} className="slg-terminal-alert" /> : null}
      <div className="slg-terminal-screen" ref={host} data-testid="terminal-screen" />
    </div>
  );
}

export default withAntd(TerminalPage);
