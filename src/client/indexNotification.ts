/**
 * The one notification of a long index: shown while the first index of a large library embeds
 * its skills (`wantsNotification`), with the stage and a Cancel button that stops the index on
 * the server (`skillRouter/cancelIndex`). The status item shows every index, this only the long
 * ones: a warm reopen or a small library never pops up.
 */
import * as vscode from 'vscode';
import type { IndexStatus } from '../shared/protocol';
import { wantsNotification } from './statusText';

export class IndexNotification implements vscode.Disposable {
  private shown: { progress: vscode.Progress<{ message?: string; increment?: number }>; reported: number; done: () => void } | null = null;
  /** Asked for and not shown yet (VS Code runs the task later), and whether the index ended meanwhile. */
  private starting = false;
  private endedWhileStarting = false;

  /** `cancel` asks the server to stop indexing (the notification's Cancel button). */
  constructor(private readonly cancel: () => void) {}

  /** Follows the status: opens the notification when a long index starts, reports it, closes it when the index ends. */
  update(s: IndexStatus): void {
    if (s.state !== 'indexing' && s.state !== 'starting') {
      this.close();
      return;
    }
    if (this.shown) this.report(s);
    else if (wantsNotification(s) && !this.starting) this.open(s);
  }

  private open(first: IndexStatus): void {
    this.starting = true;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Skill Router: indexing skills', cancellable: true },
      (progress, token) =>
        new Promise<void>((resolve) => {
          this.starting = false;
          if (this.endedWhileStarting) {
            this.endedWhileStarting = false;
            resolve();
            return;
          }
          token.onCancellationRequested(() => {
            this.cancel();
            this.close();
          });
          this.shown = { progress, reported: 0, done: resolve };
          this.report(first);
        }),
    );
  }

  private report(s: IndexStatus): void {
    const shown = this.shown;
    if (!shown || !s.progress) return;
    const { stage, done, total, percent } = s.progress;
    const increment = Math.max(0, percent - shown.reported);
    shown.reported += increment;
    const folders = s.folders.filter((f) => f.state === 'indexing').map((f) => decodeURIComponent(f.uri.replace(/\/+$/, '').split('/').pop() ?? ''));
    shown.progress.report({ increment, message: `${folders.length ? `${folders.join(', ')}: ` : ''}${stage} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}` });
  }

  private close(): void {
    if (this.starting) this.endedWhileStarting = true;
    this.shown?.done();
    this.shown = null;
  }

  dispose(): void {
    this.close();
  }
}
