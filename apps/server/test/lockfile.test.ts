/**
 * node-llama-cpp lists a prebuilt llama.cpp for every platform as optional dependencies, and npm
 * installs every one whose os and cpu match: on Linux x64 that is also ~700 MB of CUDA, Vulkan and ARM
 * builds. The platform's local engine runs on the CPU (docs/decisions.md "模型"), so the lock keeps the
 * plain Linux x64 build only; `npm install` keeps what the lock says. This catches a lock regenerated
 * with them back.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('package-lock.json', () => {
  it('holds only the CPU build of llama.cpp for Linux x64', () => {
    const lock = JSON.parse(readFileSync(new URL('../../../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, unknown> };
    const builds = Object.keys(lock.packages).filter((path) => path.startsWith('node_modules/@node-llama-cpp/'));
    expect(builds).toEqual(['node_modules/@node-llama-cpp/linux-x64']);
  });
});
