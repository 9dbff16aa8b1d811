// Secrets never reach disk: the vault is plain markdown that people commit and
// share, and agents paste whatever they saw into notes. Masking errs towards
// masking a real token; the limits below exist so that test names, module
// paths, git hashes and ordinary prose ("password reset tests pass") survive.
//
// The shapes follow the rule sets secret scanners maintain, cited per family:
// gitleaks (config/gitleaks.toml, by rule id), secretlint
// (packages/@secretlint/secretlint-rule-*), and SonarSource's sonar-text
// secrets rules (by rule key) where neither has one. Only the shapes are taken;
// their entropy checks and allow lists are replaced by the guards here
// (word boundaries, a digit or capital, variable references left alone).

export const REDACTED = '[REDACTED]';

type Masker = (text: string, hit: () => void) => string;

/**
 * One family of shapes. `keywords` (lowercase) is a cheap pre-filter, as
 * gitleaks' keywords are: a rule runs only on text that holds one of them, so
 * a note with no `ghp_`, `://`, `=` or `password` in it costs a few
 * `includes` calls, not a regex pass per rule.
 */
interface Rule {
  keywords: string[];
  mask: Masker;
}

const replaceAll = (re: RegExp, to: (m: string, ...groups: string[]) => string): Masker => {
  return (text, hit) =>
    text.replace(re, (...args: unknown[]) => {
      hit();
      return to(...(args as [string, ...string[]]));
    });
};

// A key preceded by a letter, digit, `_` or `-` is part of a longer word
// ("task-…", "ghp_" inside an identifier), not a token of its own.
const START = '(?<![A-Za-z0-9_-])';
const END = '(?![A-Za-z0-9_-])';
// In a name (`feature-ghp_…`, `kestrel/sk-proj-…`) a token glued after a
// separator is still a token: names are short and become file names.
const NAME_START = '(?<![A-Za-z0-9])';
const NAME_END = '(?![A-Za-z0-9])';

/** A vendor token: its body, the keywords that pre-filter it, and (for URLs) a head that is kept. */
interface TokenShape {
  keywords: string[];
  body: string;
  /** A capture group `(…)` at the start of `body` kept in front of the mask (a webhook's host and path). */
  keepsHead?: boolean;
  /** JWTs and URLs may be followed by anything. */
  open?: boolean;
}

/**
 * Vendor token shapes. `sk-` needs 20+ characters *and* a digit or capital:
 * real keys are random base62, while `sk-` followed by lowercase words is a
 * kebab-case name ("sk-learn-compat-shims-for-tests").
 *
 * A prefix that names one vendor (`whsec_`, `ghp_`, `npm_`, `glpat-`…) is
 * masked from 16 characters on and at any length above: the scanners' exact
 * lengths describe today's keys, while a command line carries test keys,
 * older and cut ones (`STRIPE_WEBHOOK=whsec_…` in an environment prefix, issue
 * 26). Where the prefix could start an identifier (`hf_`, `npm_`) the body also needs
 * a digit or a capital.
 */
const PREFIXED = '{16,}';
const TOKENS: TokenShape[] = [
  // gitleaks github-pat, github-oauth, github-app-token, github-refresh-token; secretlint github
  { keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], body: `(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]${PREFIXED}` },
  // gitleaks github-fine-grained-pat
  { keywords: ['github_pat_'], body: `github_pat_[A-Za-z0-9_]${PREFIXED}` },
  // gitleaks openai-api-key, anthropic-api-key (kept looser: any sk- key of 20+ with a digit or capital)
  { keywords: ['sk-'], body: 'sk-(?=[A-Za-z0-9_-]*[0-9A-Z])[A-Za-z0-9_-]{20,}' },
  // gitleaks aws-access-token; secretlint aws
  { keywords: ['akia', 'asia', 'abia', 'acca'], body: '(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}' },
  // gitleaks slack-bot-token, slack-user-token, slack-legacy-*, slack-app-token (xapp-); secretlint slack
  { keywords: ['xox', 'xapp-'], body: '(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{10,}' },
  // gitleaks slack-webhook-url; secretlint slack (IncomingWebhook)
  {
    keywords: ['hooks.slack.com'],
    body: '((?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)/)[A-Za-z0-9+/_-]{20,}',
    keepsHead: true,
    open: true,
  },
  // SonarSource sonar-text S6708 (Discord webhook URLs): gitleaks has none
  {
    keywords: ['discord'],
    body: '((?:https?://)?(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api(?:/v\\d+)?/webhooks/)\\d{5,}/[A-Za-z0-9_-]{20,}',
    keepsHead: true,
    open: true,
  },
  // gitleaks npm-access-token; secretlint npm
  { keywords: ['npm_'], body: `npm_(?=[a-z]*[0-9A-Z])[A-Za-z0-9]${PREFIXED}` },
  // gitleaks gcp-api-key; secretlint gcp
  { keywords: ['aiza'], body: 'AIza[0-9A-Za-z_-]{35}' },
  // Google OAuth 2.0 access tokens (`ya29.` prefix; TruffleHog's GoogleOauth2 detector shape, gitleaks has none)
  { keywords: ['ya29.'], body: 'ya29\\.[A-Za-z0-9_.-]{20,}' },
  // gitleaks gitlab-pat, gitlab-pat-routable, gitlab-ptt, gitlab-deploy-token, gitlab-runner-authentication-token,
  // gitlab-cicd-job-token, gitlab-scim-token, gitlab-feed-token; secretlint gitlab
  { keywords: ['glpat-', 'glptt-', 'gldt-', 'glrt-', 'glcbt-', 'glsoat-', 'glft-'], body: `gl(?:pat|ptt|dt|rt|cbt|soat|ft)-[A-Za-z0-9_.-]${PREFIXED}` },
  // gitleaks huggingface-access-token, huggingface-organization-api-token; secretlint huggingface
  { keywords: ['hf_', 'api_org_'], body: `(?:hf|api_org)_(?=[a-z]*[0-9A-Z])[A-Za-z0-9]${PREFIXED}` },
  // secretlint docker (dckr_pat_ and 27; 20+ here, the prefix is distinctive); gitleaks has none
  { keywords: ['dckr_'], body: `dckr_(?:pat|oat)_[A-Za-z0-9_-]${PREFIXED}` },
  // gitleaks stripe-access-token; secretlint stripe
  { keywords: ['sk_', 'rk_'], body: '(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}' },
  // SonarSource sonar-text S6718 (Stripe webhook signing secret): gitleaks has none
  { keywords: ['whsec_'], body: `whsec_[A-Za-z0-9+/=]${PREFIXED}` },
  // gitleaks sendgrid-api-token; secretlint sendgrid
  { keywords: ['sg.'], body: 'SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}' },
  // gitleaks jwt: three base64url parts, the first two JSON objects
  { keywords: ['eyj'], body: 'eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}', open: true },
];

const tokenRegex = (t: TokenShape, start: string, end: string, flags: string): RegExp => new RegExp(`${start}${t.body}${t.open ? '' : end}`, flags);

const tokenRule = (t: TokenShape): Rule => ({
  keywords: t.keywords,
  mask: replaceAll(tokenRegex(t, START, END, 'g'), (_m, head) => (t.keepsHead ? `${head}${REDACTED}` : REDACTED)),
});

// gitleaks private-key; secretlint privatekey
const PEM_WHOLE = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
// A block torn before its END (a truncated paste) is masked to the end of the
// text: losing the words after it is cheaper than leaking the key.
const PEM_TORN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*$/g;

// Without a scheme, "Authorization: handled by the middleware" is prose; only
// a long value with a digit in it is taken for a raw token.
const AUTH_HEADER = /(\b(?:Proxy-)?Authorization\s*[:=]\s*["']?((?:Bearer|Basic|Token|Digest)\s+)?)([^\s"',;]+)/gi;
const BEARER = /(\bBearer\s+)((?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{16,}=*)/g;
/**
 * A password in a URL (secretlint basicauth and database-connection-string:
 * postgres://, mysql://, mongodb+srv://, redis://…). The user may be empty
 * (`redis://:pw@host`); the password runs to the *last* `@` before the host,
 * so a password holding an `@` is masked whole.
 */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]*:)([^\s/]+)(@[^\s@/]+)/gi;

const isReference = (v: string): boolean => v.startsWith(REDACTED) || /^[$<%{]/.test(v);

// Prefix segments are bounded so a long `a-a-a-…` line costs linear time.
// gitleaks generic-api-key names the same key words; Azure's AccountKey and
// SharedAccessKey are SonarSource S6338 and Nosey Parker np.azure.1.
const KEY_WORD =
  '(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key(?:[_-]?id)?|secret[_-]?key|' +
  'client[_-]?secret|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|account[_-]?key|sshpass)';
/**
 * `key = value` / `key: value`, where the key *ends* in a secret word
 * (`DB_PASSWORD`, `github.token`, `"api_key"`, and glued ones: `PGPASSWORD`,
 * `.npmrc`'s `_authToken`); `pwd` only with a prefix (`MYSQL_PWD`), since a
 * bare `pwd:` is a shell's working folder. The keyword must end the key, so
 * `passwordField=…` and `test_password_reset_flow` are left alone.
 */
const ASSIGNMENT = new RegExp(
  // Found by its keyword, not by where the key starts: a lookbehind for the
  // key's start made every word a starting point and cost 2.5x as much.
  `((?:${KEY_WORD}|(?<=[A-Za-z0-9][_.-])pwd)(?![A-Za-z0-9_])["']?[ \\t]*(:=|=|:)[ \\t]*)` + `("[^"\\n]*"|'[^'\\n]*'|[^\\s"',;&]+)(?=([^\\n]?))`,
  'gi',
);

// Code pasted into a note (`const accessToken = getToken(req)`, `token = null`,
// `password: process.env.DB_PASSWORD`) assigns no secret: a call, a keyword of
// the language or a read of the environment.
const CODE_VALUE =
  /^[A-Za-z_$][\w$.]*\(|^(?:await|new|null|nil|none|true|false|undefined|function|async|typeof|require|import|this|self)$|^(?:process\.env|os\.environ|env\.|this\.|self\.)/i;

/**
 * Whether an assignment's value is worth masking. Values that are already
 * masked, variable references (`$TOKEN`, `${{ secrets.X }}`), placeholders
 * and code (CODE_VALUE) are not secrets. After a colon (prose: "token: use JWT for sessions") a
 * lone word of letters followed by more words is prose, not a value.
 */
function isSecretValue(value: string, sep: string, after: string): boolean {
  const bare = value.replace(/^["']|["']$/g, '');
  if (!bare || isReference(bare) || CODE_VALUE.test(value)) return false;
  if (sep === ':' && /^[A-Za-z]+$/.test(value) && after === ' ') return false;
  return true;
}

const maskAssignment: Masker = (text, hit) =>
  text.replace(ASSIGNMENT, (whole: string, key: string, sep: string, value: string, after: string) => {
    if (!isSecretValue(value, sep, after)) return whole;
    hit();
    const quote = /^["']/.test(value) ? value[0] : '';
    return `${key}${quote}${REDACTED}${quote}`;
  });

// A value given on a command line: quoted, or a word that is not the next
// option (`-…`), a variable (`$…`), a line continuation (`\`) or shell syntax.
const ARG = `("[^"\\n]*"|'[^'\\n]*'|[^\\s"'\\\\\\-$<>%{|&;()][^\\s]*)`;
// What lies between a command's name and its option, bounded (a long line of
// `curl curl curl` costs linear time) and within one command.
const SAME_COMMAND = '[^\\n|;&]{0,300}?';

/** Masks an argument unless it is a reference; `head` is kept in front. */
const maskArg = (whole: string, head: string, arg: string, hit: () => void): string => {
  const quote = /^["']/.test(arg) ? arg[0] : '';
  const bare = quote ? arg.slice(1, -1) : arg;
  if (!bare || isReference(bare)) return whole;
  hit();
  return `${head}${quote}${REDACTED}${quote}`;
};

/**
 * `--password X`, `--token X`, `--api-key "X"` (a space, not `=`: `=` is an
 * assignment above). An unquoted word of letters only under 16 long is prose
 * ("pass --token when asked"), not a value.
 */
const FLAG = new RegExp(
  `((?<![A-Za-z0-9_-])--(?:[A-Za-z0-9]+-){0,4}(?:password|passwd|passphrase|secret|token|api-?key|access-?key|` +
    `secret-?key|client-secret|auth-token|access-token|refresh-token)(?![A-Za-z0-9-])[ \\t]+)${ARG}`,
  'gi',
);
const maskFlag: Masker = (text, hit) => text.replace(FLAG, (whole: string, head: string, arg: string) => (/^[A-Za-z]{1,15}$/.test(arg) ? whole : maskArg(whole, head, arg, hit)));

// `mysql -pX` (glued: `-p X` makes mysql prompt and X the database), and
// `sshpass -p X` / `-pX`, `docker login -p X`. Nosey Parker and gitleaks have
// no rule for these; the forms are the tools' own manuals.
const MYSQL_P = new RegExp(`(\\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb|mariadb-dump)\\b${SAME_COMMAND}[ \\t]-p)${ARG}`, 'g');
const SSHPASS_P = new RegExp(`(\\bsshpass\\b${SAME_COMMAND}[ \\t]-p[ \\t]*)${ARG}`, 'g');
const DOCKER_P = new RegExp(`(\\b(?:docker|podman|helm)[ \\t]+(?:registry[ \\t]+)?login\\b${SAME_COMMAND}[ \\t](?:-p|--password)[ \\t]+)${ARG}`, 'g');
const commandArg =
  (re: RegExp): Masker =>
  (text, hit) =>
    text.replace(re, (whole: string, head: string, arg: string) => maskArg(whole, head, arg, hit));

// gitleaks curl-auth-user: `curl -u user:pass`, `--user=user:pass`, quoted or not.
const CURL_USER = new RegExp(`(\\bcurl\\b${SAME_COMMAND}[ \\t](?:-u|--user)(?:=|[ \\t]+)(["']?)([^\\s:"']*):)([^\\s"']+)`, 'g');
const maskCurlUser: Masker = (text, hit) =>
  text.replace(CURL_USER, (whole: string, head: string, _q: string, user: string, pw: string) => {
    if (isReference(user) || isReference(pw)) return whole;
    hit();
    return `${head}${REDACTED}`;
  });

const RULES: Rule[] = [
  { keywords: ['-----begin'], mask: replaceAll(PEM_WHOLE, () => REDACTED) },
  { keywords: ['-----begin'], mask: replaceAll(PEM_TORN, () => REDACTED) },
  ...TOKENS.map(tokenRule),
  {
    keywords: ['authorization'],
    mask: (text, hit) =>
      text.replace(AUTH_HEADER, (whole: string, head: string, scheme: string | undefined, value: string) => {
        if (value.startsWith(REDACTED) || value.startsWith('$')) return whole;
        if (!scheme && !/^(?=.*[0-9]).{16,}$/.test(value)) return whole;
        hit();
        return `${head}${REDACTED}`;
      }),
  },
  { keywords: ['bearer'], mask: replaceAll(BEARER, (_m, head) => `${head}${REDACTED}`) },
  {
    keywords: ['://'],
    mask: (text, hit) =>
      text.replace(URL_PASSWORD, (whole: string, head: string, pw: string, at: string) => {
        if (isReference(pw)) return whole;
        hit();
        return `${head}${REDACTED}${at}`;
      }),
  },
  { keywords: ['curl'], mask: maskCurlUser },
  { keywords: ['--'], mask: maskFlag },
  { keywords: ['mysql', 'mariadb'], mask: commandArg(MYSQL_P) },
  { keywords: ['sshpass'], mask: commandArg(SSHPASS_P) },
  { keywords: ['login'], mask: commandArg(DOCKER_P) },
  { keywords: ['pass', 'secret', 'token', 'key', 'pwd'], mask: maskAssignment },
];

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ANY_KEYWORD = new RegExp([...new Set(RULES.flatMap((r) => r.keywords))].map(escapeRegex).join('|'), 'i');

/**
 * Masks tokens, keys and `password=…`-style values with `[REDACTED]` and says
 * how many it masked, so the writer can tell the agent. Idempotent: masking
 * masked text masks nothing more.
 */
export function maskSecrets(text: string): { text: string; count: number } {
  // Most notes hold no keyword of any rule: one pass says so.
  if (!ANY_KEYWORD.test(text)) return { text, count: 0 };
  let count = 0;
  const hit = (): void => {
    count++;
  };
  let out = text;
  let lower = text.toLowerCase();
  for (const rule of RULES) {
    if (!rule.keywords.some((k) => lower.includes(k))) continue;
    const before = out;
    out = rule.mask(out, hit);
    if (out !== before) lower = out.toLowerCase();
  }
  return { text: out, count };
}

const NAME_TOKENS = TOKENS.map((t) => ({ keywords: t.keywords, re: tokenRegex(t, NAME_START, NAME_END, '') }));
const nameVerdicts = new Map<string, boolean>();

/**
 * Whether a name (a project, worktree, agent, hand-off target, a folder's
 * name) is or holds a secret. Names become folder and file names, titles and
 * frontmatter, where a mask would be as odd as the secret is dangerous, so
 * callers refuse such a name rather than mask it. Stricter than text: a token
 * glued after a separator (`feature-ghp_…`) counts. Remembered per name, since
 * the same few agent names are checked once per note line written.
 */
export function isSecretName(name: string): boolean {
  const known = nameVerdicts.get(name);
  if (known !== undefined) return known;
  const lower = name.toLowerCase();
  const verdict = NAME_TOKENS.some((t) => t.keywords.some((k) => lower.includes(k)) && t.re.test(name)) || maskSecrets(name).count > 0;
  if (nameVerdicts.size >= 1024) nameVerdicts.clear();
  nameVerdicts.set(name, verdict);
  return verdict;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

function maskValue(v: unknown, depth: number, hit: (n: number) => void): unknown {
  if (typeof v === 'string') {
    const m = maskSecrets(v);
    hit(m.count);
    return m.text;
  }
  // A list of records (the `evidence` key's claims) is masked item by item, a level down.
  if (Array.isArray(v)) return v.map((item) => (typeof item === 'string' ? maskValue(item, depth, hit) : depth > 0 ? maskValue(item, depth - 1, hit) : item));
  if (depth > 0 && isPlainObject(v)) return maskObject(v, depth - 1, hit);
  return v;
}

function maskObject(obj: Record<string, unknown>, depth: number, hit: (n: number) => void): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    Object.defineProperty(out, k, { value: maskValue(v, depth, hit), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Masks every string and every string of a list in a plain object, and in the
 * plain objects inside it (a checkpoint's `git` and `extra` carry commit
 * subjects and pasted text too), a few levels deep. Returns a copy; other
 * values are kept as they are.
 */
export function maskFields<T>(obj: T): { value: T; count: number } {
  let count = 0;
  const hit = (n: number): void => {
    count += n;
  };
  if (!isPlainObject(obj)) return { value: maskValue(obj, 0, hit) as T, count };
  return { value: maskObject(obj, 3, hit) as T, count };
}
