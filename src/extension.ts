import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Editor features are registered by later work; activation must stay cheap.
}

export function deactivate(): void {}
