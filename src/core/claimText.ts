// The words the editor puts beside a Verified claim (issue 26): fresh, stale
// or unbacked, as core/evidence.ts's checkClaims judged it, in the hovers (as
// blocks: the claim and its command are agents' text, rendered escaped) and
// in tree tooltips (plain text: core/evidence.ts claimWords, the sentence the
// hand-over, why and blame say). The judgement is checkClaims'.
import type { ClaimCheck } from './evidence';
import type { HoverBlock } from './hoverText';

// As hoverText's own (which imports this module: a value import back would be a cycle).
const markup = (value: string): HoverBlock => ({ kind: 'markup', value });
const text = (value: string): HoverBlock => ({ kind: 'text', value: value.replace(/\s+/g, ' ').trim() });

const files = (n: number): string => (n === 1 ? '1 file' : `${n} files`);
const names = (changed: readonly string[]): string => changed.slice(0, 3).join(', ') + (changed.length > 3 ? `, and ${changed.length - 3} more` : '');

/** The check of the claim a Verified item is: by its text, else by its place (the evidence lists claims in the Verified order). */
export function checkOf(checks: readonly ClaimCheck[], item: string, index: number): ClaimCheck | undefined {
  return checks.find((c) => c.claim === item) ?? (checks[index] && !checks.some((c) => c.claim === item) ? checks[index] : undefined);
}

/** A short count for a Verified section's description: `2 · 1 stale`. */
export function claimsSummary(checks: readonly ClaimCheck[]): string {
  const stale = checks.filter((c) => c.state === 'stale').length;
  const unbacked = checks.filter((c) => c.state === 'unbacked').length;
  return [stale ? `${stale} stale` : '', unbacked ? `${unbacked} unbacked` : ''].filter(Boolean).join(' · ');
}

/**
 * A hover's Verified list with each claim's evidence; a stale claim gets the
 * Re-run Verification link when `rerun` names the checkpoint (the scope's
 * latest, in a trusted workspace: `baton verify --run` re-runs only those).
 */
export function claimBlocks(items: readonly string[], checks: readonly ClaimCheck[], rerun: { slug: string } | null): HoverBlock[] {
  if (items.length === 0) return [];
  const out: HoverBlock[] = [markup('**Verified:**\n')];
  items.slice(0, 4).forEach((item, i) => {
    out.push(markup('\n- '), text(item));
    const c = checkOf(checks, item, i);
    if (!c) return;
    if (c.state === 'unbacked') {
      out.push(markup(' · *unbacked: no passing run of a command it names was recorded*'));
      return;
    }
    out.push(markup(c.state === 'fresh' ? ' · *fresh:* verified' : ' · ⚠ **stale:** verified'));
    if (c.commit) out.push(markup(' at '), text(c.commit));
    out.push(markup(' by '), text(c.command));
    if (c.state === 'fresh') {
      out.push(markup(`; its ${files(c.files.length)} unchanged since`));
      return;
    }
    out.push(markup(`; ${c.changed.length} of its ${files(c.files.length)} changed since (`), text(names(c.changed)), markup('): re-run before relying on it'));
    if (rerun) out.push(markup(' · '), { kind: 'command', label: 'Re-run Verification', command: 'baton.rerunVerification', args: [{ slug: rerun.slug }] });
  });
  if (items.length > 4) out.push(markup(`\n- … ${items.length - 4} more in the checkpoint`));
  out.push(markup('\n\n'));
  return out;
}
