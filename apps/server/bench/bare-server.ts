import Fastify from 'fastify';

/**
 * The yardstick: Fastify with one JSON route and nothing else (no logger, no plugins). The bench
 * starts it in its own process, like the app, so both are measured the same way.
 */
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

const port = Number(process.env.PORT);
await app.listen({ port, host: '127.0.0.1' });

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
