package dev.ourios.cli.wal;

import dev.ourios.cli.Output;
import dev.ourios.ingest.quarantine.SegmentQuarantine;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ourios wal quarantine list}: one line per quarantined segment, with its size and why it is there. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the quarantined WAL segments")
public final class QuarantineListCommand implements Callable<Integer> {
    @Mixin
    WalDirOption wal;

    @Option(names = "--json", description = "One JSON object per segment")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Output out = Output.system();
        List<SegmentQuarantine.Entry> entries = wal.quarantine().list();
        for (SegmentQuarantine.Entry e : entries) {
            if (json) {
                var o = Output.obj();
                o.put("segment", e.segment().path().getFileName().toString());
                o.put("bytes", e.bytes());
                o.put("reason", e.reason());
                out.jsonLine(o);
            } else {
                out.out().println(e.segment().path().getFileName() + "  " + e.bytes() + " bytes  " + e.reason());
            }
        }
        if (!json) {
            out.err().println(entries.size() + " segment(s) in " + wal.quarantine().directory());
        }
        return 0;
    }
}
