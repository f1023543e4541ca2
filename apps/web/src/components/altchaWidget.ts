/**
 * The ALTCHA widget, loaded only when a human check is asked for (a dynamic import of this module):
 * the build without inline workers (the console's CSP allows scripts and workers from 'self' only),
 * its PBKDF2 worker as a file of its own, the Chinese texts and the styles.
 */
import 'altcha/external';
import 'altcha/i18n/zh-cn';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

for (const algorithm of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512']) {
  globalThis.$altcha.algorithms.set(algorithm, () => new Pbkdf2Worker());
}

export const ALTCHA_LANGUAGE = 'zh-cn';
