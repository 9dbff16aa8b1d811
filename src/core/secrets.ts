// Secrets never reach disk: the vault is plain markdown that people commit and
// share, and agents paste whatever they saw into notes. Masking errs towards
// masking a real token; the limits below exist so that test names, module
// paths, git hashes and ordinary prose ("password reset tests pass") survive.

export const REDACTED = '[REDACTED]';

type Masker = (text: string, hit: () => void) => string;

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

/**
 * Vendor token shapes. `sk-` needs 20+ characters *and* a digit or capital:
 * real keys are random base62, while `sk-` followed by lowercase words is a
 * kebab-case name ("sk-learn-compat-shims-for-tests").
 */
const TOKENS: RegExp[] = [
  new RegExp(`${START}(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}${END}`, 'g'),
  new RegExp(`${START}github_pat_[A-Za-z0-9_]{20,}${END}`, 'g'),
  new RegExp(`${START}sk-(?=[A-Za-z0-9_-]*[0-9A-Z])[A-Za-z0-9_-]{20,}${END}`, 'g'),
  new RegExp(`${START}(?:AKIA|ASIA)[A-Z0-9]{16}${END}`, 'g'),
  new RegExp(`${START}xox[abprs]-[A-Za-z0-9-]{10,}${END}`, 'g'),
  new RegExp(`${START}npm_[A-Za-z0-9]{36}${END}`, 'g'),
  new RegExp(`${START}AIza[0-9A-Za-z_-]{35}${END}`, 'g'),
  // Stripe secret and restricted keys; SendGrid keys.
  new RegExp(`${START}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}${END}`, 'g'),
  new RegExp(`${START}SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}${END}`, 'g'),
  // JSON web tokens: three base64url parts, the first two JSON objects.
  new RegExp(`${START}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}`, 'g'),
];

const PEM_WHOLE = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
// A block torn before its END (a truncated paste) is masked to the end of the
// text: losing the words after it is cheaper than leaking the key.
const PEM_TORN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*$/g;

// Without a scheme, "Authorization: handled by the middleware" is prose; only
// a long value with a digit in it is taken for a raw token.
const AUTH_HEADER = /(\b(?:Proxy-)?Authorization\s*[:=]\s*["']?((?:Bearer|Basic|Token|Digest)\s+)?)([^\s"',;]+)/gi;
const BEARER = /(\bBearer\s+)((?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{16,}=*)/g;
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi;

// Prefix segments are bounded so a long `a-a-a-…` line costs linear time.
const KEY_WORD =
  '(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key(?:[_-]?id)?|secret[_-]?key|' +
  'client[_-]?secret|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token)';
/**
 * `key = value` / `key: value`, where the key *ends* in a secret word
 * (`DB_PASSWORD`, `github.token`, `"api_key"`). The keyword must end the key,
 * so `passwordField=…` and `test_password_reset_flow` are left alone.
 */
const ASSIGNMENT = new RegExp(
  `((?<![A-Za-z0-9_])(?:[A-Za-z0-9]+[_.-]){0,8}${KEY_WORD}(?![A-Za-z0-9_])["']?[ \\t]*(:=|=|:)[ \\t]*)` +
    `("[^"\\n]*"|'[^'\\n]*'|[^\\s"',;&]+)(?=([^\\n]?))`,
  'gi',
);

/**
 * Whether an assignment's value is worth masking. Values that are already
 * masked, variable references (`$TOKEN`, `${{ secrets.X }}`) and placeholders
 * are not secrets. After a colon (prose: "token: use JWT for sessions") a
 * lone word of letters followed by more words is prose, not a value.
 */
function isSecretValue(value: string, sep: string, after: string): boolean {
  const bare = value.replace(/^["']|["']$/g, '');
  if (!bare || bare.startsWith(REDACTED) || /^[$<]/.test(bare)) return false;
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

const MASKERS: Masker[] = [
  replaceAll(PEM_WHOLE, () => REDACTED),
  replaceAll(PEM_TORN, () => REDACTED),
  ...TOKENS.map((re) => replaceAll(re, () => REDACTED)),
  (text, hit) =>
    text.replace(AUTH_HEADER, (whole: string, head: string, scheme: string | undefined, value: string) => {
      if (value.startsWith(REDACTED) || value.startsWith('$')) return whole;
      if (!scheme && !/^(?=.*[0-9]).{16,}$/.test(value)) return whole;
      hit();
      return `${head}${REDACTED}`;
    }),
  replaceAll(BEARER, (_m, head) => `${head}${REDACTED}`),
  (text, hit) =>
    text.replace(URL_PASSWORD, (whole: string, head: string, pw: string, at: string) => {
      if (pw.startsWith(REDACTED) || pw.startsWith('$')) return whole;
      hit();
      return `${head}${REDACTED}${at}`;
    }),
  maskAssignment,
];

/**
 * Masks tokens, keys and `password=…`-style values with `[REDACTED]` and says
 * how many it masked, so the writer can tell the agent. Idempotent: masking
 * masked text masks nothing more.
 */
export function maskSecrets(text: string): { text: string; count: number } {
  let count = 0;
  const hit = (): void => {
    count++;
  };
  let out = text;
  for (const mask of MASKERS) out = mask(out, hit);
  return { text: out, count };
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
  if (Array.isArray(v)) return v.map((item) => (typeof item === 'string' ? maskValue(item, depth, hit) : item));
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
