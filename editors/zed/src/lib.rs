//! Starts the AVAP language server: the command and its arguments come from the user's settings
//! (`lsp.avap-lsp.binary`), by default `node dist/cli.js lsp --stdio` found on the PATH.
use zed_extension_api::{self as zed, serde_json, settings::LspSettings, LanguageServerId, Result};

struct AvapExtension;

impl zed::Extension for AvapExtension {
    fn new() -> Self {
        AvapExtension
    }

    fn language_server_command(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.binary);
        let command = binary
            .as_ref()
            .and_then(|b| b.path.clone())
            .or_else(|| worktree.which("node"))
            .ok_or_else(|| "AVAP: set lsp.avap-lsp.binary.path (node) in your settings".to_string())?;
        let args = binary
            .and_then(|b| b.arguments)
            .ok_or_else(|| "AVAP: set lsp.avap-lsp.binary.arguments to [\"/path/to/dist/cli.js\", \"lsp\", \"--stdio\"]".to_string())?;
        Ok(zed::Command {
            command,
            args,
            env: Default::default(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.initialization_options))
    }
}

zed::register_extension!(AvapExtension);
