/**
 * Accepted generated code, followed until its document is saved: saved with
 * the code still as accepted keeps the watch (a later save may edit it), saved
 * without it records "edited" once. An untitled document saved under a name
 * closes and reopens as another document: it is found again by its text.
 *
 * Editor-free (documents are passed as key, untitled flag and text), so it is
 * unit-tested on its own; generateCommands feeds it the workbench's events.
 */
import { outcomeOnSave } from './outcome';

export interface AcceptedWatch {
  generationId: string;
  /** The code as accepted. */
  code: string;
}

/** A document as the tracker sees it. */
export interface TrackedDocument {
  /** The document's URI as a string. */
  key: string;
  isUntitled: boolean;
  text: string;
}

/** What a save revealed: the accepted code of `generationId` was edited, the document now reads `text`. */
export interface EditedOnSave {
  generationId: string;
  text: string;
}

export class AcceptedCodeTracker {
  private readonly accepted = new Map<string, AcceptedWatch>();
  /** Accepted untitled documents that closed (Save As closes them): their last text, to find them under the saved name. */
  private readonly closedUntitled: { watch: AcceptedWatch; text: string }[] = [];

  /**
   * @param openDocument the open document with this key, if any (to match an untitled one by its text).
   * @param maxClosed how many closed untitled documents are remembered.
   */
  constructor(
    private readonly openDocument: (key: string) => TrackedDocument | undefined,
    private readonly maxClosed = 20,
  ) {}

  /** Code of a generation was accepted into the document `key` (the latest acceptance wins). */
  accept(key: string, watch: AcceptedWatch): void {
    this.accepted.set(key, watch);
  }

  /** Whether the document `key` holds accepted code being followed. */
  isWatching(key: string): boolean {
    return this.accepted.has(key);
  }

  /** The document was saved: 'edited' once when the accepted code is no longer in it, otherwise undefined (still watched). */
  saved(doc: TrackedDocument): EditedOnSave | undefined {
    const watch = this.take(doc);
    if (!watch) return undefined;
    if (outcomeOnSave(watch.code, doc.text) === 'edited') return { generationId: watch.generationId, text: doc.text };
    // Saved as accepted: keep watching this document for a later edited save.
    this.accepted.set(doc.key, watch);
    return undefined;
  }

  /** The document closed: its watch ends, unless it is untitled (then it may come back saved under a name). */
  closed(doc: TrackedDocument): void {
    const watch = this.accepted.get(doc.key);
    if (!watch) return;
    this.accepted.delete(doc.key);
    if (doc.isUntitled) {
      this.closedUntitled.push({ watch, text: doc.text });
      if (this.closedUntitled.length > this.maxClosed) this.closedUntitled.shift();
    }
  }

  /** The watch of a saved document, taken out: by key, or for a document saved from an untitled one, by its text. */
  private take(doc: TrackedDocument): AcceptedWatch | undefined {
    const direct = this.accepted.get(doc.key);
    if (direct) {
      this.accepted.delete(doc.key);
      return direct;
    }
    const stashed = this.closedUntitled.findIndex((c) => c.text === doc.text);
    if (stashed >= 0) return this.closedUntitled.splice(stashed, 1)[0]?.watch;
    for (const [key, watch] of this.accepted) {
      const open = this.openDocument(key);
      if (open?.isUntitled && open.text === doc.text) {
        this.accepted.delete(key);
        return watch;
      }
    }
    return undefined;
  }
}
