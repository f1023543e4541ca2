import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

/** The Role's and ClusterRole's rules of deploy/kubernetes/rbac.yaml. */
export function shippedRules(path: string): { namespaced: Rule[]; cluster: Rule[] } {
  const documents = parseAllDocuments(readFileSync(path, 'utf8')).map((document) => document.toJSON() as { kind: string; rules?: Rule[] });
  return {
    namespaced: documents.filter((document) => document.kind === 'Role').flatMap((document) => document.rules ?? []),
    cluster: documents.filter((document) => document.kind === 'ClusterRole').flatMap((document) => document.rules ?? []),
  };
}

/**
 * The API request a call needs the right for, as RBAC names it: `GET …/pods` is list, `GET …/pods/x`
 * get, `GET …/pods/x/exec` get on pods/exec; null for discovery, which every account may read.
 */
export function permissionOf(method: string, url: string): { apiGroup: string; resource: string; verb: string; namespaced: boolean } | null {
  const parts = new URL(url, 'http://cluster').pathname.split('/').filter((part) => part !== '');
  const [root, ...rest] = parts;
  const apiGroup = root === 'api' ? '' : (rest.shift() ?? '');
  rest.shift(); // the version
  if (rest.length === 0) return null;
  const namespaced = rest[0] === 'namespaces';
  const [resource = '', name, subresource] = namespaced ? rest.slice(2) : rest;
  const verb = method === 'GET' ? (name ? 'get' : 'list') : method === 'PATCH' ? 'patch' : method === 'DELETE' ? 'delete' : method === 'POST' ? 'create' : method.toLowerCase();
  return { apiGroup, resource: subresource ? `${resource}/${subresource}` : resource, verb, namespaced };
}

/** Whether the shipped rules allow a request. */
export function allowed(rules: { namespaced: Rule[]; cluster: Rule[] }, permission: NonNullable<ReturnType<typeof permissionOf>>): boolean {
  // A ClusterRole's rules hold everywhere; a Role's only in its namespace.
  const candidates = permission.namespaced ? [...rules.namespaced, ...rules.cluster] : rules.cluster;
  return candidates.some((rule) => rule.apiGroups.includes(permission.apiGroup) && rule.resources.includes(permission.resource) && rule.verbs.includes(permission.verb));
}
