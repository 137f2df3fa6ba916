import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A one-day self-signed certificate for `host`, made by openssl in `dir`: its key and certificate, PEM. */
export function selfSignedCert(dir: string, host: string): { key: Buffer; cert: Buffer } {
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`, '-keyout', key, '-out', cert];
  execFileSync('openssl', args, { stdio: 'ignore' });
  return { key: readFileSync(key), cert: readFileSync(cert) };
}
