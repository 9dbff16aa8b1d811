// Baton's own folder in the person's home, `~/.baton/` (the stable launcher in
// `bin/`, the backups of edited agent settings in `backups/`): spelled here and
// nowhere else, like the vault's layout in vaultLayout.ts. Not the vault's
// `.baton/` cache, which only shares its name.
import * as path from 'path';

export const batonHomeOf = (home: string): string => path.join(home, '.baton');
