// Every identifier the manifest and the code share, in one place: the menus'
// `when` clauses in package.json match these strings, so a typo here is a menu
// that silently never shows. test/integration checks the manifest against them.

export const VIEW_CONTAINER = 'baton';

export const Views = {
  /** Every project, the current one open on its checkpoints (it replaced a Projects view that repeated them). */
  checkpoints: 'baton.checkpoints',
  abandoned: 'baton.abandoned',
  plans: 'baton.plans',
  thisFile: 'baton.thisFile',
  agents: 'baton.agents',
} as const;

export const Commands = {
  commitCheckpoint: 'baton.commitCheckpoint',
  handOff: 'baton.handOff',
  addNote: 'baton.addNote',
  resume: 'baton.resume',
  copyHandover: 'baton.copyHandover',
  closeAbandoned: 'baton.closeAbandoned',
  showFileCheckpoints: 'baton.showFileCheckpoints',
  openCheckpoint: 'baton.openCheckpoint',
  openPlan: 'baton.openPlan',
  switchProject: 'baton.switchProject',
  refresh: 'baton.refresh',
  rebuildIndex: 'baton.rebuildIndex',
  chooseVault: 'baton.chooseVault',
  showLog: 'baton.showLog',
  resumeInClaudeCode: 'baton.resumeInClaudeCode',
  openTranscript: 'baton.openTranscript',
  connectAgent: 'baton.connectAgent',
  disconnectAgent: 'baton.disconnectAgent',
  installInPath: 'baton.installInPath',
  refreshLauncher: 'baton.refreshLauncher',
  syncVault: 'baton.syncVault',
  shareVault: 'baton.shareVault',
  search: 'baton.search',
  toggleAgentBlame: 'baton.toggleAgentBlame',
  showCheckpoints: 'baton.showCheckpoints',
  commitForm: 'baton.commitForm',
  discardForm: 'baton.discardForm',
  importPastSessions: 'baton.importPastSessions',
  rerunVerification: 'baton.rerunVerification',
  shareThread: 'baton.shareThread',
  stopSharingThread: 'baton.stopSharingThread',
} as const;

/** `contextValue`s of tree items; menus match them with `viewItem == …`. */
export const ContextValues = {
  project: 'baton.project',
  currentProject: 'baton.project.current',
  scope: 'baton.scope',
  checkpoint: 'baton.checkpoint',
  /** A checkpoint bound to a Claude Code session: it alone offers Resume in Claude Code and Open Transcript. */
  claudeCheckpoint: 'baton.checkpoint.claudeSession',
  section: 'baton.section',
  sectionItem: 'baton.sectionItem',
  /** A stale Verified claim of a scope's latest checkpoint: Re-run Verification is offered on it (trusted workspace only). */
  staleClaim: 'baton.sectionItem.staleClaim',
  abandoned: 'baton.abandoned',
  plan: 'baton.plan',
  planGroup: 'baton.planGroup',
  touch: 'baton.touch',
  /** A This File entry whose checkpoint is bound to a Claude Code session. */
  claudeTouch: 'baton.touch.claudeSession',
  more: 'baton.more',
  /** The current project before its first checkpoint: a click commits one. */
  noCheckpoints: 'baton.noCheckpoints',
  /** An agent in the Agents view that Baton is not connected to. */
  agent: 'baton.agent',
  /** An agent with Baton's entries in one of its scopes: it alone offers Disconnect. */
  agentConnected: 'baton.agent.connected',
  /** One of a connected agent's files: opens on click. */
  agentFile: 'baton.agentFile',
  /** An agent's problem, by the fix its inline action runs (app/agentHealth's AgentFix kinds). */
  agentProblemConnect: 'baton.agentProblem.connect',
  agentProblemLauncher: 'baton.agentProblem.launcher',
  agentProblemPath: 'baton.agentProblem.path',
  /** A problem only a person can fix (a file Baton will not parse): no action. */
  agentProblemManual: 'baton.agentProblem.manual',
} as const;

/** Context keys set with `setContext`; the welcome views switch on them. */
export const ContextKeys = {
  /** One of VaultState. */
  vaultState: 'baton.vaultState',
  /** One of ThisFileState. */
  thisFile: 'baton.thisFile',
  /** `unreadable` when the Agents view could not read the agents' settings (its welcome then speaks), else `ok`. */
  agentsState: 'baton.agentsState',
  /** True once any agent has Baton's entries in one of its scopes: the walkthrough's Connect step completes on it. */
  agentConnected: 'baton.agentConnected',
  /** True while the vault folder exists (chosen, or the default made by a first write): the walkthrough's first step. */
  vaultExists: 'baton.vaultExists',
  /** True while the Checkpoints view is in sight showing a checkpoint: the walkthrough's third step completes when it turns true. */
  checkpointSeen: 'baton.checkpointSeen',
  /** True while the vault holds an abandoned session: the Abandoned Sessions view shows only then. */
  hasAbandoned: 'baton.hasAbandoned',
  /** True once a file's checkpoint hover was shown: the walkthrough's last step. */
  fileHovered: 'baton.fileHovered',
  /** True while the active editor is a checkpoint form: its Commit and Discard title actions. */
  checkpointForm: 'baton.checkpointForm',
} as const;

export type VaultState = 'loading' | 'noVault' | 'empty' | 'unreadable' | 'ready';
export type ThisFileState = 'noEditor' | 'none' | 'some';

/** The URI scheme of the read-only hand-over documents Resume opens. */
export const HANDOVER_SCHEME = 'baton-handover';

/** The URI scheme of the read-only transcript documents Open Transcript opens. */
export const TRANSCRIPT_SCHEME = 'baton-transcript';

/** The name of the integrated terminal Resume in Claude Code opens. */
export const CLAUDE_TERMINAL = 'Claude Code';

/** The URI scheme of the read-only before/after documents Connect Agent's diff shows. */
export const CONNECT_SCHEME = 'baton-connect';
