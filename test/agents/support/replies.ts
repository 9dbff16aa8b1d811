// The shapes of `baton … --json` replies the agents' tier reads: the public
// CLI is how each test looks at the vault after a real agent's session.
export interface Checkpoint {
  session: string;
  slug: string;
  agent: string;
  task: string;
  state: string;
  failed: string[];
  decisions: string[];
  files: string[];
  next: string;
}

export interface Note {
  text: string;
  agent: string;
}

/** `baton sessions PROJECT --json` */
export interface Sessions {
  project: string;
  checkpoints: Checkpoint[];
  uncommitted: Note[];
}

/** `baton resume PROJECT --json` */
export interface Resume {
  latest: Checkpoint | null;
  uncommitted: Note[];
}

/** `baton doctor --json` */
export interface Doctor {
  agents: { agent: string; scope: string; connected: string; problems: string[] }[];
}
