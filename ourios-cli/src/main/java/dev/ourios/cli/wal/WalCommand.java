package dev.ourios.cli.wal;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ourios wal …}: the write-ahead log of {@code ourios serve}. */
@Command(name = "wal", mixinStandardHelpOptions = true,
        description = "Inspect the write-ahead log of 'ourios serve' (its quarantine of segments that cannot be flushed)",
        subcommands = {QuarantineCommand.class})
public final class WalCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; see 'ourios wal --help'");
    }
}
