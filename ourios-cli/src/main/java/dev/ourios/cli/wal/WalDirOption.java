package dev.ourios.cli.wal;

import dev.ourios.cli.UsageException;
import dev.ourios.ingest.quarantine.SegmentQuarantine;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --wal-dir}: the WAL directory whose quarantine a command reads. */
public final class WalDirOption {
    @Option(names = "--wal-dir", required = true, paramLabel = "DIR",
            description = "The write-ahead log's directory (ingest.wal_dir of 'ourios serve')")
    Path walDir;

    SegmentQuarantine quarantine() {
        if (!Files.isDirectory(walDir)) {
            throw new UsageException("--wal-dir " + walDir + ": not a directory");
        }
        return new SegmentQuarantine(walDir);
    }
}
