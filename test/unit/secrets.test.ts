import assert from 'node:assert/strict';
import { maskFields, maskSecrets, REDACTED } from '../../src/core/secrets';
import { makeCheckpoint } from './builders';

// Tokens are assembled at run time so this file never holds a string that a
// secret scanner (or a push protection rule) would take for a live credential.
const rnd = (n: number, alphabet = 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8'): string =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
const ghp = 'ghp' + '_' + rnd(36);
const pem = (kind: string): string =>
  `-----BEGIN ${kind}PRIVATE KEY-----\n${rnd(64)}\n${rnd(64)}\n${rnd(20)}==\n-----END ${kind}PRIVATE KEY-----`;

const SECRETS: [string, string, string][] = [
  ['GitHub classic token', `use ${ghp} for the API`, `use ${REDACTED} for the API`],
  ['GitHub OAuth token', `gho_${rnd(36)}`, REDACTED],
  ['GitHub user-to-server token', `token ghu_${rnd(36)} expired`, `token ${REDACTED} expired`],
  ['GitHub server token', `ghs_${rnd(36)}`, REDACTED],
  ['GitHub refresh token', `ghr_${rnd(36)}`, REDACTED],
  ['GitHub fine-grained PAT', `github_pat_${rnd(22)}_${rnd(59)}`, REDACTED],
  ['Stripe live secret key', `stripe ${'sk' + '_live_' + rnd(24)} in env`, `stripe ${REDACTED} in env`],
  ['Stripe restricted test key', 'rk' + '_test_' + rnd(24), REDACTED],
  ['SendGrid key', `SG.${rnd(22)}.${rnd(43)}`, REDACTED],
  ['OpenAI key', `OPENAI key is sk-${rnd(48)}.`, `OPENAI key is ${REDACTED}.`],
  ['OpenAI project key', `sk-proj-${rnd(40)}-${rnd(20)}`, REDACTED],
  ['Anthropic key', `(sk-ant-api03-${rnd(80)}-${rnd(6)}AA)`, `(${REDACTED})`],
  ['AWS access key id', `aws: AKIA${rnd(16, 'ABCDEFGHJKLMNPQRSTUVWXYZ234567')}`, `aws: ${REDACTED}`],
  ['AWS session key id', `ASIA${rnd(16, 'ABCDEFGHJKLMNPQRSTUVWXYZ234567')}`, REDACTED],
  ['Slack bot token', `xoxb-${rnd(12, '0123456789')}-${rnd(13, '0123456789')}-${rnd(24)}`, REDACTED],
  ['Slack user token', `xoxp-${rnd(30, '0123456789')}`, REDACTED],
  ['RSA private key', `key:\n${pem('RSA ')}\ndone`, `key:\n${REDACTED}\ndone`],
  ['PKCS#8 private key', pem(''), REDACTED],
  ['OpenSSH private key folded onto one line', pem('OPENSSH ').replace(/\n/g, ' '), REDACTED],
  ['torn private key block', `before -----BEGIN EC PRIVATE KEY-----\n${rnd(64)}\n${rnd(30)}`, `before ${REDACTED}`],
  ['password assignment', 'DB password=hunter2!x', `DB password=${REDACTED}`],
  ['env password', 'POSTGRES_PASSWORD=s3cr3t npm test', `POSTGRES_PASSWORD=${REDACTED} npm test`],
  ['passwd colon', 'passwd: hunter2', `passwd: ${REDACTED}`],
  ['secret assignment', 'secret=abc123', `secret=${REDACTED}`],
  ['token in a query string', 'GET /hook?token=abc123def&x=1', `GET /hook?token=${REDACTED}&x=1`],
  ['api_key quoted', 'api_key = "abc 123 def"', `api_key = "${REDACTED}"`],
  ['apikey single-quoted', "apikey: 'q1w2e3'", `apikey: '${REDACTED}'`],
  ['JSON client_secret', '{"client_secret": "0a1b2c3d"}', `{"client_secret": "${REDACTED}"}`],
  ['access_key', 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG', `aws_secret_access_key=${REDACTED}`],
  ['dotted key', 'github.token: abc123', `github.token: ${REDACTED}`],
  ['Authorization header', `curl -H "Authorization: Bearer ${rnd(40)}" x`, `curl -H "Authorization: Bearer ${REDACTED}" x`],
  ['raw Authorization value', `Authorization: ${rnd(32)}`, `Authorization: ${REDACTED}`],
  ['Basic auth header', `Authorization: Basic ${rnd(24)}==`, `Authorization: Basic ${REDACTED}`],
  ['bare bearer token', `Bearer ${rnd(30)}.${rnd(20)}`, `Bearer ${REDACTED}`],
  ['password in a URL', 'postgres://app:pa55word@db:5432/app', `postgres://app:${REDACTED}@db:5432/app`],
  ['JSON web token', `eyJ${rnd(20)}.eyJ${rnd(30)}.${rnd(43)}`, REDACTED],
];

const NOT_SECRETS = [
  'test_password_reset_flow',
  'npm test -- test_password_reset_flow passes',
  'src/auth/token.ts',
  'src/auth/token.ts:42 handles expiry',
  'the tokenizer splits on whitespace',
  'git commit -m "ci: skip-ci on docs" && git push',
  'pip install sk-learn-compat',
  'sk-learn',
  'sk-learn-compat-shims-for-tests-and-more',
  'risk-assessment-for-the-payment-module-v2',
  'commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b',
  'passwordField is validated on blur',
  'password reset tests pass',
  'Decision: token: use JWT for sessions',
  'secret: none of the tests leak it',
  'passwords are hashed with argon2id',
  'auth_token_ttl = 3600 stays',
  'export GITHUB_TOKEN=$GH_TOKEN',
  'curl -H "Authorization: Bearer $TOKEN" https://api',
  'password=<your password>',
  'AKIA is the prefix of AWS key ids',
  'xoxb- tokens are Slack bot tokens',
  '-----BEGIN PUBLIC KEY----- is fine to share',
  'https://github.com/org/repo/pull/12',
  'ssh git@github.com:org/repo.git',
  'TOKEN_EXPIRY_SECONDS',
  'the `secretStorage` API',
  'Кестрел: пароль сброшен, тесты проходят',
  'Authorization: handled by the middleware',
  'Bearer authenticationscheme is documented in RFC 6750',
];

describe('maskSecrets', () => {
  for (const [what, input, expected] of SECRETS) {
    it(`masks a ${what}`, () => {
      const got = maskSecrets(input);
      assert.equal(got.text, expected);
      assert.equal(got.count, 1);
    });
  }

  for (const text of NOT_SECRETS) {
    it(`leaves alone ${JSON.stringify(text)}`, () => {
      assert.deepEqual(maskSecrets(text), { text, count: 0 });
    });
  }

  it('counts every secret once, even a token inside an assignment', () => {
    const got = maskSecrets(`GITHUB_TOKEN=${ghp}\npassword: hunter2\nand sk-${rnd(30)}`);
    assert.equal(got.text, `GITHUB_TOKEN=${REDACTED}\npassword: ${REDACTED}\nand ${REDACTED}`);
    assert.equal(got.count, 3);
  });

  it('is idempotent: masked text masks nothing more', () => {
    for (const [, input] of SECRETS) {
      const once = maskSecrets(input).text;
      assert.deepEqual(maskSecrets(once), { text: once, count: 0 }, input);
    }
  });

  it('does not reach past the end of a line for a value', () => {
    assert.deepEqual(maskSecrets('password=\nnext line'), { text: 'password=\nnext line', count: 0 });
  });

  it('stays fast on long adversarial lines', () => {
    const started = Date.now();
    maskSecrets('a-'.repeat(50_000));
    maskSecrets('-----BEGIN RSA PRIVATE KEY-----'.repeat(2_000));
    maskSecrets('x://'.repeat(20_000) + 'a.'.repeat(20_000));
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  });
});

describe('maskFields', () => {
  it('masks every string and string list field, and nested plain objects, and counts', () => {
    const cp = makeCheckpoint({
      task: `rotate ${ghp}`,
      decisions: ['keep', 'password=hunter2'],
      git: { branch: 'main', commit: 'abc1234', subject: `add sk-${rnd(30)}`, dirty: 1, unreadable: false, files: [], worktree: '' },
      extra: { transcript: `token=${rnd(12)}` },
    });
    const { value, count } = maskFields(cp);
    assert.equal(count, 4);
    assert.equal(value.task, `rotate ${REDACTED}`);
    assert.deepEqual(value.decisions, ['keep', `password=${REDACTED}`]);
    assert.equal(value.git.subject, `add ${REDACTED}`);
    assert.equal(value.extra.transcript, `token=${REDACTED}`);
    assert.equal(value.ts, cp.ts);
    assert.equal(value.git.dirty, 1);
    assert.equal(cp.task, `rotate ${ghp}`, 'the input is not changed');
  });

  it('keeps fields without secrets equal', () => {
    const cp = makeCheckpoint({ task: 'fix the colon: in task', files: ['src/auth/token.ts'] });
    const { value, count } = maskFields(cp);
    assert.equal(count, 0);
    assert.deepEqual(value, cp);
  });
});
