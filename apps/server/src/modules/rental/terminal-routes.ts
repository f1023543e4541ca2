import { z } from 'zod';
import { TERMINAL_CLOSE_CODES } from '@slg/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, ok } from '../../http/envelope.js';
import { AppError } from '../../core/errors.js';
import { IDLE_CLOSE_MS, openShell, SESSION_CHECK_MS, TERMINAL_TEXTS, TerminalService } from './terminal.js';
import { errors, instanceIdField } from './routes.js';

const tags = ['容器实例'];

const TERMINAL_CLOSE = TERMINAL_CLOSE_CODES;

/** What the console sends as text: the terminal's new size. Input goes as binary frames. */
const resizeMessage = z.object({ type: z.literal('resize'), cols: z.number().int().min(2).max(500), rows: z.number().int().min(1).max(200) });

function sizeOf(query: unknown): { cols: number; rows: number } {
  const parsed = z.object({ cols: z.coerce.number().int().min(2).max(500).catch(80), rows: z.coerce.number().int().min(1).max(200).catch(24) }).safeParse(query);
  return parsed.success ? parsed.data : { cols: 80, rows: 24 };
}

/** Tells the console why, as one JSON text frame, then closes. */
function closeWith(socket: WebSocket, code: number, message: string): void {
  if (socket.readyState !== socket.OPEN) return;
  socket.send(JSON.stringify({ type: 'closed', message }));
  socket.close(code);
}

/**
 * 终端 over HTTP: `GET /rental/terminal/available`, `POST /rental/terminal/ticket`, and the WebSocket
 * `GET /rental/terminal?ticket=…&cols=…&rows=…` — binary frames carry the shell's bytes both ways, a
 * text frame from the console resizes it, and a text frame from the server says why it closed.
 */
export function terminalRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const terminals = new TerminalService(deps);
    const containers = { preValidation: requireAuthority('CONTAINER') };

    app.get(
      '/rental/terminal/available',
      { ...containers, schema: { tags, summary: '是否可以打开实例终端（模拟的实例没有终端）', response: { 200: envelopeOf(z.object({ available: z.boolean(), reason: z.string().nullable() })), ...errors } } },
      async () => ok({ available: terminals.available, reason: terminals.available ? null : TERMINAL_TEXTS.simulated }),
    );

    app.post(
      '/rental/terminal/ticket',
      {
        ...containers,
        schema: {
          tags,
          summary: '打开实例终端的一次性凭据（60 秒内用于连接 WebSocket /rental/terminal）',
          body: z.object({ instanceId: instanceIdField }),
          response: { 200: envelopeOf(z.object({ ticket: z.string(), expiresAt: z.string() })), ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return ok(await terminals.ticket(principalOf(request), request.body.instanceId));
      },
    );

    app.route({
      method: 'GET',
      url: '/rental/terminal',
      config: { public: true },
      schema: {
        tags,
        summary: '实例终端（WebSocket）：用 /rental/terminal/ticket 取得的凭据连接；二进制帧为终端字节，文本帧 {"type":"resize","cols","rows"} 调整大小',
        querystring: z.object({
          ticket: z.string().min(1, '缺少终端凭据').max(2000),
          cols: z.coerce.number().int().min(2).max(500).optional(),
          rows: z.coerce.number().int().min(1).max(200).optional(),
        }),
        response: { 101: z.null().describe('切换为 WebSocket：此后为终端的数据帧'), ...errors },
      },
      // A plain GET (no WebSocket upgrade) is told what the address is for.
      handler: async () => {
        throw new AppError('VALIDATION', '终端地址只接受 WebSocket 连接');
      },
      wsHandler: (socket, request) => {
        const ticket = request.query.ticket;
        const size = sizeOf(request.query);
        let lastActivity = Date.now();
        let ended = false;
        // Input that arrives before the shell is open waits for it.
        const early: Buffer[] = [];
        let write: ((data: Buffer) => void) | undefined;
        let resize: ((cols: number, rows: number) => void) | undefined;
        socket.on('message', (data: Buffer, isBinary: boolean) => {
          lastActivity = Date.now();
          if (isBinary) {
            if (write) write(data);
            else early.push(data);
            return;
          }
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(data.toString('utf8')) as unknown;
          } catch {
            return;
          }
          const message = resizeMessage.safeParse(parsed);
          if (message.success) resize?.(message.data.cols, message.data.rows);
        });
        const finish = (code: number, message: string) => {
          if (ended) return;
          ended = true;
          closeWith(socket, code, message);
        };
        void (async () => {
          const target = await terminals.open(ticket);
          const { client, shell } = await openShell(target, size);
          if (socket.readyState !== socket.OPEN) {
            client.end();
            return;
          }
          write = (data) => shell.write(data);
          resize = (cols, rows) => shell.setWindow(rows, cols, 0, 0);
          for (const data of early.splice(0)) shell.write(data);
          shell.on('data', (chunk: Buffer) => {
            lastActivity = Date.now();
            if (socket.readyState === socket.OPEN) socket.send(chunk, { binary: true });
          });
          shell.stderr.on('data', (chunk: Buffer) => socket.readyState === socket.OPEN && socket.send(chunk, { binary: true }));
          shell.on('close', () => finish(TERMINAL_CLOSE.ended, '会话已结束'));
          const watch = setInterval(() => {
            void (async () => {
              if (Date.now() - lastActivity > IDLE_CLOSE_MS) return finish(TERMINAL_CLOSE.idle, TERMINAL_TEXTS.idle);
              if (!(await terminals.sessionAlive(target.sessionId))) return finish(TERMINAL_CLOSE.sessionEnded, TERMINAL_TEXTS.sessionEnded);
              if (!(await terminals.stillRunning(target.instanceId))) return finish(TERMINAL_CLOSE.stopped, TERMINAL_TEXTS.stopped);
            })().catch((error: unknown) => request.log.warn({ err: error }, 'terminal watch failed'));
          }, SESSION_CHECK_MS);
          watch.unref();
          socket.on('close', () => {
            ended = true;
            clearInterval(watch);
            client.end();
          });
        })().catch((error: unknown) => {
          if (error instanceof AppError) finish(error.status === 403 ? TERMINAL_CLOSE.refused : TERMINAL_CLOSE.unavailable, error.message);
          else {
            request.log.error({ err: error }, 'terminal failed');
            finish(TERMINAL_CLOSE.unavailable, TERMINAL_TEXTS.unreachable);
          }
        });
      },
    });
  };
}
