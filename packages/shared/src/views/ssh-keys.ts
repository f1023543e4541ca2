/**
 * What SSH公钥 answers (`/ssh_key`): the server's response schema, and the type the console reads it
 * with (`import type` only).
 */
import { z } from 'zod';
import { valuesOf } from '../dictionaries.js';
import { SSH_KEY_TYPES } from '../ssh-keys.js';

/** A key as the console lists it: never the key itself, nor whose it is. */
export const sshKeySchema = z.object({
  keyName: z.string(),
  keyType: z.enum(valuesOf(SSH_KEY_TYPES)).describe('ssh-ed25519、ecdsa-sha2-nistp256/384/521 或 ssh-rsa'),
  bits: z.number().int().describe('密钥位数，同 ssh-keygen -l：Ed25519 为256，ECDSA 为曲线位数，RSA 为模数位数'),
  fingerprint: z.string().describe('SHA256 指纹，同 ssh-keygen -l 的输出，如 SHA256:iEcNivIf…'),
  comment: z.string().describe('公钥末尾的注释（常为 user@host），没有则为空字符串'),
  createdAt: z.string(),
});
export type SshKeyView = z.infer<typeof sshKeySchema>;
