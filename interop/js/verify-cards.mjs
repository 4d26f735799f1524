// Checks test vectors written by sign-cards.mjs with @a2a-js/sdk 1.3.0's own
// verifyAgentCardSignature (npm alias a2a-js-sdk-13): every vector whose
// manifest entry says "a2ajs": "verified" must verify there, every other one
// must be refused. Keys come from the vector's key set, by kid only (the
// callback ignores jku).
//
//   node verify-cards.mjs [dir]      # default ../../cardsig/testdata/a2ajs
//
// Prints one line per vector ("ok <name> <result>" or "MISMATCH ...") on
// stdout and exits 1 if any vector disagrees.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as jose from 'jose';
import { verifyAgentCardSignature } from 'a2a-js-sdk-13';

const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.argv[2] ?? join(here, '..', '..', 'cardsig', 'testdata', 'a2ajs'));
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
console.debug = () => {}; // a2a-js logs each failed entry with console.debug

let bad = 0;
for (const v of manifest.vectors) {
  const jwks = JSON.parse(readFileSync(join(dir, v.jwks), 'utf8'));
  const verify = verifyAgentCardSignature(async (kid) => {
    const jwk = jwks.keys.find((k) => k.kid === kid);
    if (!jwk) throw new Error(`no key ${kid}`);
    return jose.importJWK(jwk, jwk.alg);
  });
  let got = 'verified';
  try {
    await verify(JSON.parse(readFileSync(join(dir, v.card), 'utf8')));
  } catch {
    got = 'rejected';
  }
  const ok = got === v.a2ajs;
  if (!ok) bad++;
  console.log(`${ok ? 'ok' : 'MISMATCH'} ${v.name} ${got}${ok ? '' : ` (manifest: ${v.a2ajs})`}`);
}
process.exit(bad ? 1 : 0);
