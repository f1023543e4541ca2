import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import { hmacHex } from '../../lib/crypto.js';
import type { HumanCheck, HumanCheckChallenge } from './provider.js';
import type { SpentHumanChecks } from './spent.js';

export interface AltchaOptions {
  /** The server's secret (JWT_SECRET); the HMAC keys of the challenges are derived from it. */
  secret: string;
  /** PBKDF2 iterations per try. */
  cost: number;
  /** The counter hidden in a challenge is drawn from [counterMax / 2, counterMax]: the tries a solver needs. */
  counterMax: number;
  /** How long a challenge can be solved and used. */
  ttlSeconds: number;
  spent: SpentHumanChecks;
  now: () => Date;
}

const ALGORITHM = 'PBKDF2/SHA-256';

const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      data: z.object({ expiresAt: z.number() }).catchall(z.union([z.string(), z.number(), z.boolean(), z.null()])),
    }),
    signature: z.string(),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string(), time: z.number().optional() }),
});

/** The widget's payload: base64 of the JSON {challenge, solution}; null when it is not one. */
function parsePayload(solution: string): z.infer<typeof payloadSchema> | null {
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(solution, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Self-hosted ALTCHA: proof-of-work challenges (PBKDF2/SHA-256, deterministic counter) signed with
 * keys derived from the server secret, so a solution is checked with two HMACs and no state until it
 * passes; then its nonce is spent. The expiry travels signed in the challenge data and is checked
 * against the server's clock.
 */
export class AltchaHumanCheck implements HumanCheck {
  readonly name = 'altcha';
  private readonly signatureSecret: string;
  private readonly keySignatureSecret: string;

  constructor(private readonly options: AltchaOptions) {
    this.signatureSecret = hmacHex(options.secret, 'altcha:challenge-signature');
    this.keySignatureSecret = hmacHex(options.secret, 'altcha:key-signature');
  }

  async challenge(): Promise<HumanCheckChallenge> {
    const { cost, counterMax, ttlSeconds, now } = this.options;
    const expiresAt = Math.floor(now().getTime() / 1000) + ttlSeconds;
    const challenge = await createChallenge({
      algorithm: ALGORITHM,
      cost,
      counter: randomInt(counterMax, Math.ceil(counterMax / 2)),
      deriveKey,
      data: { expiresAt },
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
    if (!challenge.signature) throw new Error('ALTCHA challenge was not signed');
    return {
      provider: 'altcha',
      altcha: { parameters: { ...challenge.parameters }, signature: challenge.signature },
    };
  }

  async verify(solution: string): Promise<boolean> {
    const payload = parsePayload(solution);
    if (!payload) return false;
    const { parameters } = payload.challenge;
    if (parameters.algorithm !== ALGORITHM) return false;
    const expiresAtMs = parameters.data.expiresAt * 1000;
    if (!(expiresAtMs > this.options.now().getTime())) return false;
    let verified: boolean;
    try {
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.signatureSecret,
        hmacKeySignatureSecret: this.keySignatureSecret,
      });
      verified = result.verified;
    } catch {
      // Parameters the library refuses to even read (a forged payload): not a solution.
      return false;
    }
    if (!verified) return false;
    return this.options.spent.spend(`altcha:${parameters.nonce}`, new Date(expiresAtMs));
  }
}
