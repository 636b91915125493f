/**
 * The contributions that are neither commands nor settings: the language and its assets (grammar, snippets, the
 * JSON schemas of a program's request and test files), the chat view, the first-run walkthrough, the formatter's
 * layout. Declared here so package.json's whole `contributes` is generated in one place (./manifest.ts).
 */
import { CHAT_VIEW_ID, COMMANDS } from './commands';

/** The extension activates when an AVAP file opens (and on its commands and views, which VS Code infers). */
export const ACTIVATION_EVENTS = ['onLanguage:avap'];

export const LANGUAGES = [
  {
    id: 'avap',
    aliases: ['AVAP', 'avap'],
    extensions: ['.avap'],
    configuration: './language-configuration.json',
  },
];

export const GRAMMARS = [{ language: 'avap', scopeName: 'source.avap', path: './syntaxes/avap.tmLanguage.json' }];

export const SNIPPETS = [{ language: 'avap', path: './snippets/avap.code-snippets' }];

export const VIEWS_CONTAINERS = { activitybar: [{ id: 'avap', title: 'AVAP', icon: 'media/avap.svg' }] };

export const VIEWS = { avap: [{ type: 'webview', id: CHAT_VIEW_ID, name: 'Ask AVAP' }] };

// Completion and checks in the JSON editor for a program's request and test files (JSON schemas in schemas/).
export const JSON_VALIDATION = [
  { fileMatch: '*.avap.request.json', url: './schemas/avap-request.schema.json' },
  { fileMatch: '*.avap.test.json', url: './schemas/avap-test.schema.json' },
];

// One layout for AVAP everywhere: the formatter's (two spaces), which `avap fmt` applies too.
export const CONFIGURATION_DEFAULTS = { '[avap]': { 'editor.tabSize': 2, 'editor.insertSpaces': true } };

const link = (label: string, command: { id: string }) => `[${label}](command:${command.id})`;

// First run: Help › Welcome › Walkthroughs, opened once by the extension on its first activation.
export const WALKTHROUGHS = [
  {
    id: 'avap.welcome',
    title: 'Get Started with AVAP Assistant',
    description: 'Check that Ollama is ready, open an AVAP example and generate validated code at the cursor.',
    featuredFor: ['**/*.avap'],
    steps: [
      {
        id: 'avap.welcome.about',
        title: 'What AVAP Assistant does',
        description: `Every AVAP line the assistant writes is checked by the real AVAP parser before you see it: invalid code goes back to the model once with the parser's trace, and what stays invalid or unchecked says so.\n${link('Open the Ask AVAP view', COMMANDS.ask)}`,
        media: { markdown: 'media/walkthrough/about.md' },
      },
      {
        id: 'avap.welcome.checkOllama',
        title: 'Check Ollama',
        description: `The assistant talks to a local Ollama server. Check that it answers at \`avap.ollama.url\` and that the configured models are pulled; a missing model comes with its exact \`ollama pull\` line to copy or run.\n${link('Check Ollama', COMMANDS.checkOllama)}`,
        media: { markdown: 'media/walkthrough/ollama.md' },
        completionEvents: [`onCommand:${COMMANDS.checkOllama.id}`],
      },
      {
        id: 'avap.welcome.openExample',
        title: 'Open an example',
        description: `Open an AVAP program: the parser validates it as you type — squiggles, quick fixes and the status item.\n${link('Open an Example', COMMANDS.openExample)}`,
        media: { markdown: 'media/walkthrough/example.md' },
        completionEvents: [`onCommand:${COMMANDS.openExample.id}`, 'onLanguage:avap'],
      },
      {
        id: 'avap.welcome.run',
        title: 'Run it and read the response',
        description: `Run the example on the AVAP runtime, in a sandbox: the response (status, JSON body), the logs and each step open beside the file, and every line shows the value it assigned. Set the query, headers or body with **AVAP: Edit Run Request…**.\n${link('Run File', COMMANDS.runFile)}`,
        media: { markdown: 'media/walkthrough/run.md' },
        completionEvents: [`onCommand:${COMMANDS.runFile.id}`],
      },
      {
        id: 'avap.welcome.generate',
        title: 'Generate at the cursor',
        description: `In an .avap file, describe what you need: the validated answer goes in at the cursor (or replaces the selection) for you to accept or reject.\n${link('Generate at Cursor', COMMANDS.generateAtCursor)}`,
        media: { markdown: 'media/walkthrough/generate.md' },
        completionEvents: [`onCommand:${COMMANDS.generateAtCursor.id}`],
      },
    ],
  },
];
