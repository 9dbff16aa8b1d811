import assert from 'node:assert/strict';
import { maskFields, maskSecrets, REDACTED } from '../../src/core/secrets';
import { makeCheckpoint } from './builders';

// Tokens are assembled at run time so this file never holds a string that a
// secret scanner (or a push protection rule) would take for a live credential.
const rnd = (n: number, alphabet = 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8'): string => Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
const ghp = 'ghp' + '_' + rnd(36);
const pem = (kind: string): string => `-----BEGIN ${kind}PRIVATE KEY-----\n${rnd(64)}\n${rnd(64)}\n${rnd(20)}==\n-----END ${kind}PRIVATE KEY-----`;

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
  // Issue 12, item 9: shapes that used to leak.
  ['glued env password (PGPASSWORD)', 'PGPASSWORD=Xq7' + rnd(9) + ' psql -h db', `PGPASSWORD=${REDACTED} psql -h db`],
  ['MYSQL_PWD', 'MYSQL_PWD=' + rnd(10) + ' mysql', `MYSQL_PWD=${REDACTED} mysql`],
  ['SSHPASS env', 'SSHPASS=' + rnd(10) + ' sshpass -e ssh h', `SSHPASS=${REDACTED} sshpass -e ssh h`],
  ['.npmrc _authToken', '//registry.npmjs.org/:_authToken=' + rnd(8) + '-' + rnd(4) + '-' + rnd(12), `//registry.npmjs.org/:_authToken=${REDACTED}`],
  ['redis URL with an empty user', 'redis://:' + rnd(16) + '@cache:6379/0', `redis://:${REDACTED}@cache:6379/0`],
  ['mongodb+srv URL', 'mongodb+srv://app:' + rnd(14) + '@cluster0.x.mongodb.net/db', `mongodb+srv://app:${REDACTED}@cluster0.x.mongodb.net/db`],
  ['URL password holding an @', 'postgres://app:p@' + rnd(10) + '@db/app', `postgres://app:${REDACTED}@db/app`],
  ['--password X', 'mysqladmin --password ' + rnd(12) + ' status', `mysqladmin --password ${REDACTED} status`],
  ['--token X', 'gh auth login --with-token --token ' + rnd(14), `gh auth login --with-token --token ${REDACTED}`],
  ['--api-key "X"', 'tool --api-key "' + rnd(14) + '" run', `tool --api-key "${REDACTED}" run`],
  ['mysql -pX', 'mysql -u root -p' + rnd(10) + ' app', `mysql -u root -p${REDACTED} app`],
  ['sshpass -p X', 'sshpass -p ' + rnd(10) + ' ssh deploy@h', `sshpass -p ${REDACTED} ssh deploy@h`],
  ['sshpass -pX', 'sshpass -p' + rnd(10) + ' scp a h:b', `sshpass -p${REDACTED} scp a h:b`],
  ['docker login -p X', 'docker login -u bot -p ' + rnd(12) + ' ghcr.io', `docker login -u bot -p ${REDACTED} ghcr.io`],
  ['curl -u user:pass', 'curl -u deploy:' + rnd(12) + ' https://x', `curl -u deploy:${REDACTED} https://x`],
  ['curl --user=user:pass', "curl --user='deploy:" + rnd(12) + "' https://x", `curl --user='deploy:${REDACTED}' https://x`],
  ['curl X-Api-Key header', 'curl -H "X-Api-Key: ' + rnd(24) + '" https://x', `curl -H "X-Api-Key: ${REDACTED}" https://x`],
  ['Slack app token', 'xapp' + '-1-A0' + rnd(9, 'ABCDEFGHJK0123456789') + '-4' + rnd(12, '0123456789') + '-' + rnd(64, 'abcdef0123456789'), REDACTED],
  [
    'Slack webhook URL',
    'https://hooks.slack.com/services/T0' + rnd(8, 'ABCDEFGH0123') + '/B0' + rnd(8, 'ABCDEFGH0123') + '/' + rnd(24),
    `https://hooks.slack.com/services/${REDACTED}`,
  ],
  ['Discord webhook URL', 'https://discord.com/api/webhooks/1' + rnd(17, '0123456789') + '/' + rnd(68), `https://discord.com/api/webhooks/${REDACTED}`],
  ['Google OAuth access token', 'ya29' + '.a0' + rnd(60) + '_' + rnd(20), REDACTED],
  ['GitLab personal access token', 'glpat' + '-' + rnd(20), REDACTED],
  ['Hugging Face token', 'hf' + '_' + rnd(34, 'abcdefghijKLMNOPQRSTuvwxyz'), REDACTED],
  ['Docker Hub PAT', 'dckr' + '_pat_' + rnd(27), REDACTED],
  ['Stripe live key', 'sk' + '_live_' + rnd(40), REDACTED],
  ['Stripe webhook secret', 'STRIPE_WEBHOOK=' + 'whsec' + '_' + rnd(32), `STRIPE_WEBHOOK=${REDACTED}`],
  // A vendor's prefix is masked at any plausible length, not only today's (issue 26: commands carry older and test keys).
  ['short Stripe webhook secret in an environment prefix', 'STRIPE_WEBHOOK_SECRET=' + 'whsec' + '_' + rnd(16) + ' npm test', `STRIPE_WEBHOOK_SECRET=${REDACTED} npm test`],
  ['short webhook secret as a flag', 'stripe listen --secret ' + 'whsec' + '_' + rnd(20), `stripe listen --secret ${REDACTED}`],
  ['short webhook secret as an argument', 'node verify.js ' + 'whsec' + '_' + rnd(16), `node verify.js ${REDACTED}`],
  ['long webhook secret', 'whsec' + '_' + rnd(120), REDACTED],
  ['short GitHub token', 'GH_TOKEN=' + 'ghp' + '_' + rnd(16) + ' gh pr list', `GH_TOKEN=${REDACTED} gh pr list`],
  ['short npm token', 'NPM_TOKEN=' + 'npm' + '_' + rnd(18) + ' npm publish', `NPM_TOKEN=${REDACTED} npm publish`],
  ['short GitLab token', 'glpat' + '-' + rnd(16), REDACTED],
  ['short Docker Hub PAT', 'dckr' + '_pat_' + rnd(16), REDACTED],
  [
    'Azure storage AccountKey',
    'DefaultEndpointsProtocol=https;AccountName=kestrel;AccountKey=' + rnd(86, 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8+/') + '==;EndpointSuffix=core.windows.net',
    `DefaultEndpointsProtocol=https;AccountName=kestrel;AccountKey=${REDACTED};EndpointSuffix=core.windows.net`,
  ],
  ['camelCase config key', '{ "dbPassword": "' + rnd(12) + '" }', `{ "dbPassword": "${REDACTED}" }`],
  [
    'token in a badge URL',
    '[![codecov](https://codecov.io/gh/o/r/graph/badge.svg?token=' + rnd(10) + ')](https://codecov.io/gh/o/r)',
    `[![codecov](https://codecov.io/gh/o/r/graph/badge.svg?token=${REDACTED}`,
  ],
  [
    'Azure SharedAccessKey',
    'Endpoint=sb://k.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=' + rnd(43) + '=',
    `Endpoint=sb://k.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${REDACTED}`,
  ],
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
  // Near misses of the new shapes.
  'mysql -p app (prompts for the password)',
  'mysql -u root -p',
  'sshpass -p "$SSHPASS" ssh deploy@h',
  'sshpass -e ssh h',
  'curl -u "$USER:$TOKEN" https://x',
  'curl -u deploy https://x',
  'npm run build -- --password-file ./pw.txt',
  '--password $DB_PASSWORD',
  '--token-file ~/.token',
  'redis://cache:6379/0',
  'redis://:@cache:6379',
  'mongodb://localhost:27017/app',
  'the PGPASSWORD env var is read by psql',
  'PGPASSWORD=$PGPASS psql',
  'npm config set //registry.npmjs.org/:_authToken=${NPM_TOKEN}',
  'hf_hub_download is the Hugging Face helper',
  'hf_tokenizerconfigloader is a name',
  'npm_lifecycle_event_script_name',
  'whsec_ is the prefix of Stripe webhook secrets',
  'whsec_short1',
  'ya29 is the prefix of Google access tokens',
  'glpat- tokens expire',
  'https://hooks.slack.com/services/ is the webhook base',
  'https://discord.com/api/webhooks/ docs',
  'AccountName=kestrel;EndpointSuffix=core.windows.net',
  'git rev-parse HEAD = 3f786850e387550fdab836ed7e6dc881de23001b',
  'id 550e8400-e29b-41d4-a716-446655440000 is a UUID',
  'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'pytest -p no:cacheprovider -k test_login',
  'ssh -p 2222 deploy@h',
  'pwd: /work/kestrel',
  // Code pasted into a note assigns no secret; a line continuation is no value.
  'const accessToken = getToken(req)',
  'var matchToToken = require("js-tokens").matchToToken',
  'token = null',
  'password: process.env.DB_PASSWORD',
  'code --without-connection-token \\',
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
    maskSecrets('curl '.repeat(20_000) + '-u a:b');
    maskSecrets('mysql sshpass docker login '.repeat(5_000) + '-p');
    maskSecrets('--token '.repeat(20_000));
    maskSecrets('x://u:' + 'p@'.repeat(50_000));
    maskSecrets('PGPASSWORD'.repeat(10_000) + '=');
    maskSecrets('xapp-ghp_hf_glpat-'.repeat(10_000));
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  });
});

describe('maskFields', () => {
  it("masks the records of a list too (the evidence key's claims and commands), and leaves their hashes", () => {
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const hash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    const { value, count } = maskFields({ evidence: [{ claim: `verified ${token}`, command: `GH=${token} npm test`, files: { 'src/a.ts': hash } }] });
    assert.equal(count, 2);
    assert.ok(!JSON.stringify(value).includes(token), JSON.stringify(value));
    assert.equal(value.evidence[0].files['src/a.ts'], hash);
  });

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
