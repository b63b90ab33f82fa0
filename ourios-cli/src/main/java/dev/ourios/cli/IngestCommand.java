package dev.ourios.cli;

import dev.ourios.core.LogRecord;
import dev.ourios.core.otlp.OtlpJsonDecoder;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ingest.IngestWriter;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ourios ingest}: reads OTLP/JSON files (one {@code {"resourceLogs":[…]}} document per line, as the
 * Collector's file exporter writes, or one pretty-printed document) and lands one ingest file per tenant-hour.
 * Every input file is decoded completely before anything is written, so a bad file writes nothing.
 */
@Command(name = "ingest", description = "Land OTLP/JSON log files as ingest files, one per tenant-hour")
public final class IngestCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--tenant", required = true, description = "Tenant id the records belong to")
    String tenant;

    @Option(names = "--json", description = "Print one JSON line per file landed")
    boolean json;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "OTLP/JSON files")
    List<Path> files;

    @Override
    public Integer call() throws Exception {
        TenantArg.require("--tenant", tenant);
        List<LogRecord> rows = new ArrayList<>();
        for (Path f : files) {
            rows.addAll(decode(f));
        }
        Output out = Output.system();
        try (ObjectStore s = store.open()) {
            var landed = new IngestWriter(s).land(rows);
            for (var l : landed) {
                if (json) {
                    var o = Output.obj();
                    o.put("tenant", tenant);
                    o.put("partition", l.partition().hourLabel());
                    o.put("file", s.describe(l.key()));
                    o.put("rows", l.rows());
                    o.put("bytes", l.bytes());
                    out.jsonLine(o);
                } else {
                    out.out().printf("%s  %d rows  %s%n", s.describe(l.key()), l.rows(), Units.formatBytes(l.bytes()));
                }
            }
            if (!json) {
                out.out().printf("ingested %d records into %d files%n", rows.size(), landed.size());
            }
        }
        return 0;
    }

    private List<LogRecord> decode(Path f) throws IOException {
        String text;
        try {
            text = Files.readString(f, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException(f + ": no such file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new UsageException(f + ": not UTF-8 text");
        }
        try {
            String trimmed = text.strip();
            // A pretty-printed single document spans lines; the file exporter writes one document per line.
            boolean oneDocument = trimmed.startsWith("{") && !trimmed.contains("\n{");
            if (oneDocument) {
                return OtlpJsonDecoder.decode(tenant, trimmed);
            }
            try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                return OtlpJsonDecoder.decodeLines(tenant, r);
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException(f + ": " + e.getMessage());
        }
    }
}
