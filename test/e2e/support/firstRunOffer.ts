/**
 * The extension offers its walkthrough once per profile, in a notification, whatever mode it runs in. The suite
 * runs in a fresh profile, so the offer appears when the first test activates the extension: after that test (the
 * suite's root hook), it is waited for and dismissed as a user would, before other tests read the notifications.
 * Nothing here activates the extension (the activation test needs to be first to).
 */
import * as vscode from 'vscode';
import { EXTENSION_ID, waitFor } from './vscodeHelpers';
import { captureWorkbench } from './workbench';

let dismissed = false;

export async function dismissFirstRunOffer(): Promise<void> {
  if (dismissed || !vscode.extensions.getExtension(EXTENSION_ID)?.isActive) return;
  dismissed = true;
  await waitFor(
    'the first-run offer of the walkthrough',
    async () => {
      const facts = await captureWorkbench();
      if (facts.notifications.some((n) => n.includes('AVAP Assistant is on'))) return true;
      // A toast the workbench has already tucked away is still in the notification centre.
      await vscode.commands.executeCommand('notifications.showList');
      return undefined;
    },
    30_000,
  );
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
}
