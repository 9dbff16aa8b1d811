// A temporary HOME holding a git repository `kestrel` and a vault folder,
// where the built CLI is run as a person would run it: the shape of the tests
// of the commands that write into a person's home (connect, doctor).
import * as fs from 'fs';
import * as path from 'path';
import { gitRepo } from './gitRepo';
import { tempDir } from './tempVault';

export interface HomeFolders {
  root: string;
  home: string;
  repo: string;
  vault: string;
}

export function homeFolders(prefix: string, vaultName = 'vault'): HomeFolders {
  const root = tempDir(prefix);
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  return { root, home, repo: gitRepo(root, 'kestrel'), vault: path.join(root, vaultName) };
}
