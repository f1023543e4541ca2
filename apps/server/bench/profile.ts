import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives, coarsely: an npm package, a file of ours, or a V8/Node bucket. */
function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const ours = url.indexOf('/apps/server/');
  return ours >= 0 ? url.slice(ours + '/apps/'.length) : url;
}

function shortLocation(url: string, line: number): string {
  const modules = url.lastIndexOf('/node_modules/');
  const trimmed = modules >= 0 ? url.slice(modules + '/node_modules/'.length) : url.slice(url.indexOf('/apps/') + 1);
  return `${trimmed}:${line + 1}`;
}

/** Milliseconds since the profiled process started. */
export interface ProfileWindow {
  fromMs: number;
  toMs: number;
}

/**
 * Self time by function and by area, busiest first, of the samples inside `window` (start-up and the
 * other scenarios left out); idle time is left out of the shares.
 */
export function summariseProfile(file: string, window: ProfileWindow, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  let elapsedMicros = 0;
  profile.samples.forEach((id, index) => {
    const node = nodes.get(id);
    const micros = profile.timeDeltas[index] ?? 0;
    elapsedMicros += micros;
    if (elapsedMicros < window.fromMs * 1000 || elapsedMicros > window.toMs * 1000) return;
    if (!node || node.callFrame.functionName === '(idle)') return;
    const { functionName, url, lineNumber } = node.callFrame;
    busy += micros;
    const name = `${functionName || '(anonymous)'} ${url ? shortLocation(url, lineNumber) : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    const area = areaOf(url, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + micros);
  });
  const lines = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, micros]) => `  ${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${name}`);
  const seconds = (window.toMs - window.fromMs) / 1000;
  return [`busy ${(busy / 1e6).toFixed(1)} s of ${seconds.toFixed(1)} s; self time by area:`, ...lines(byArea, 15), 'by function:', ...lines(byFunction, top)].join('\n');
}
