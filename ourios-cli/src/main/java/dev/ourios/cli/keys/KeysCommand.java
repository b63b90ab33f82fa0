package dev.ourios.cli.keys;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ourios keys …}: the API keys file of {@code ourios serve}. */
@Command(name = "keys", mixinStandardHelpOptions = true, description = "Create, list and revoke API keys (the keys file of 'ourios serve')",
        subcommands = {NewKeyCommand.class, ListKeysCommand.class, RevokeKeyCommand.class})
public final class KeysCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; see 'ourios keys --help'");
    }
}
