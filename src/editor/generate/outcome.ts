/**
 * What the user did with accepted generated code, decided when the document
 * is saved. Pure: the tracker in generateCommands passes the texts.
 */

/** Whitespace-insensitive: re-indenting or a trailing newline is not an edit of the code. */
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * 'edited' when the saved document no longer contains the accepted code
 * (ignoring whitespace), undefined when the code is still there as accepted.
 */
export function outcomeOnSave(acceptedCode: string, savedText: string): 'edited' | undefined {
  const code = squash(acceptedCode);
  if (code === '') return undefined;
  return squash(savedText).includes(code) ? undefined : 'edited';
}
