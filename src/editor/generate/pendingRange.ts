/**
 * Where a pending generated change sits in its document, in offsets, as the
 * document is edited: an edit before it moves it, an edit inside it (a
 * regenerate of those lines, the developer's own typing) grows or shrinks it,
 * an edit across its boundary ends it (the change is no longer one piece
 * that can be accepted or rejected). Pure; unit-tested.
 */
export interface TextChange {
  /** Offset of the replaced text. */
  offset: number;
  /** Length of the replaced text. */
  length: number;
  /** Length of the new text. */
  newLength: number;
}

export class PendingRange {
  constructor(
    public start: number,
    public end: number,
  ) {}

  /** Follows one change; false when the change crossed the range's boundary (the range is gone). */
  follow(change: TextChange): boolean {
    const changeEnd = change.offset + change.length;
    const delta = change.newLength - change.length;
    if (changeEnd <= this.start) {
      // Before it (typing right at its start goes before it too).
      this.start += delta;
      this.end += delta;
      return true;
    }
    if (change.offset >= this.end) return true;
    if (change.offset >= this.start && changeEnd <= this.end) {
      this.end += delta;
      return true;
    }
    return false;
  }
}
