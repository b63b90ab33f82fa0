package dev.ourios.cli.wal;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ourios wal quarantine …}: the segments the flusher moved aside. */
@Command(name = "quarantine", mixinStandardHelpOptions = true,
        description = "List or replay WAL segments whose flush failed for a reason a retry does not fix",
        subcommands = {QuarantineListCommand.class, QuarantineReplayCommand.class})
public final class QuarantineCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing command; see 'ourios wal quarantine --help'");
    }
}
