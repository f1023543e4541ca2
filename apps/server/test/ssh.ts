import { Client } from 'ssh2';

export interface SshLogin {
  host: string;
  port: number;
  password?: string;
  privateKey?: string;
}

/** Logs in over SSH as root (what `ssh -p PORT root@HOST` does), runs one command and resolves to its trimmed stdout; rejects on a refused login or a non-zero exit. */
export function sshRun(login: SshLogin, command: string, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    const timer = setTimeout(() => {
      client.end();
      reject(new Error(`ssh ${login.host}:${login.port} timed out`));
    }, timeoutMs);
    const finish = (error: Error | null, output?: string) => {
      clearTimeout(timer);
      client.end();
      if (error) reject(error);
      else resolve(output ?? '');
    };
    client
      .on('ready', () => {
        client.exec(command, (error, channel) => {
          if (error) return finish(error);
          let stdout = '';
          let stderr = '';
          channel.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
          channel.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
          channel.on('close', (code: number | null) => finish(code === 0 ? null : new Error(`exit ${code}: ${stderr}`), stdout.trim()));
        });
      })
      .on('error', (error) => finish(error))
      .connect({ host: login.host, port: login.port, username: 'root', password: login.password, privateKey: login.privateKey, readyTimeout: timeoutMs, tryKeyboard: false });
  });
}

/** Waits until SSH at the address accepts this login (sshd needs a moment after the container starts). */
export async function sshReady(login: SshLogin, attempts = 50): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await sshRun(login, 'true', 5_000);
      return;
    } catch (error) {
      if (attempt >= attempts || /authentication/i.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
