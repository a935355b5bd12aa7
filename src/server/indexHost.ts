/** The workspace index's host (the LSP connection, faked in tests) and options. */
import type { Diagnostic, WorkDoneProgressServerReporter } from 'vscode-languageserver';
import type { LiveSkillService } from '../core/service';
import type { OpenLibraryOptions } from '../node/library';
import type { IndexStatus, InitializationOptions } from '../shared/protocol';
import type { ServerLogger } from './logger';
import type { PairCacheStorage } from './pairFindings';
import type { ServerSettings } from './settings';

/** What the index needs from the LSP connection (and what tests fake). */
export interface IndexHost {
  openLibrary(opts: OpenLibraryOptions): Promise<LiveSkillService>;
  settings(folderUri: string | null): Promise<ServerSettings>;
  publish(uri: string, diagnostics: Diagnostic[], version?: number): void;
  /**
   * Resolves once every publish so far is written to the client. A pass that publishes thousands
   * of skills waits for it between slices, so the messages do not pile up unsent (the end of the
   * cross-skill checks at 20,000 skills queued every skill's diagnostics at once).
   */
  written?(): Promise<void>;
  /** A cancellable progress report shown by the client. */
  progress(title: string): Promise<Pick<WorkDoneProgressServerReporter, 'report' | 'done' | 'token'>>;
  status(status: IndexStatus): void;
  /** Link of a diagnostic code into docs/diagnostics.md. */
  href(code: string): string;
  /** Where a library's pair-scan results are kept between sessions (absent: in memory only). */
  pairCacheStorage?(dir: string): PairCacheStorage;
  log: ServerLogger;
}

export interface WorkspaceIndexOptions {
  init: InitializationOptions;
  /** Quiet time after the last keystroke before a document is re-checked. */
  debounceMs?: number;
  /** Quiet time after the last keystroke before the cross-skill checks of a document run. */
  semanticDelayMs?: number;
  /** Quiet time after the last update before the vector cache is written. */
  flushAfterMs?: number;
  /**
   * Quiet time (per 100 skills, at least once) after an update that changed a name or description (the pair findings' input)
   * before every skill's pair findings are checked again (see `PairPasses`).
   */
  recheckDelayMs?: number;
}
