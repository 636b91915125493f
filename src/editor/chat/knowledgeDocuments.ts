/**
 * Read-only `avap-knowledge:` documents: a knowledge-base document (the
 * reference the chat's sources cite), shown as Markdown in an editor tab.
 * The path carries the title (the tab's name), the query the document id.
 */
import * as vscode from 'vscode';
import type { KnowledgeBase } from '../../knowledge';

const KNOWLEDGE_SCHEME = 'avap-knowledge';

export function knowledgeUri(docId: string, title: string): vscode.Uri {
  const name = title.replace(/[\\/:*?"<>|#]/g, ' ').trim() || docId;
  return vscode.Uri.from({ scheme: KNOWLEDGE_SCHEME, path: `/${name}.md`, query: `id=${encodeURIComponent(docId)}` });
}

export class KnowledgeDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly knowledge: () => KnowledgeBase | undefined) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = new URLSearchParams(uri.query).get('id') ?? '';
    const doc = this.knowledge()?.docs.find((d) => d.id === id);
    if (!doc) return `# Not found\n\nThe knowledge base that ships with the extension has no document \`${id}\`.\n`;
    const body = doc.body.trimStart();
    return body.startsWith('# ') ? body : `# ${doc.title}\n\n${body}`;
  }

  static register(knowledge: () => KnowledgeBase | undefined): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(
      KNOWLEDGE_SCHEME,
      new KnowledgeDocumentProvider(knowledge),
    );
  }
}
