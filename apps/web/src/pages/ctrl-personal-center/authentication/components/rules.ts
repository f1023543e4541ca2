import type { IdentityCheck } from '@slg/shared';

/** An antd rule from one of the shared identity checks: the same rule, word for word, as the server's. */
export function identityRule(check: (value: string) => IdentityCheck) {
  return {
    validator: (_rule: unknown, value: string | undefined) => {
      const result = check(value ?? '');
      return result.ok ? Promise.resolve() : Promise.reject(new Error(result.message));
    },
  };
}

/** Server messages that belong under one field: each message maps to the field. */
export function messagesOn<Field extends string>(field: Field, messages: readonly string[]): Record<string, Field> {
  return Object.fromEntries(messages.map((message) => [message, field]));
}
