package dev.ourios.cli;

import dev.ourios.store.ObjectStore;
import dev.ourios.table.ingest.ContentNamedIngestWriter.Landing;

/**
 * What {@code ourios ingest} prints: one line per file as soon as it lands (so a run that fails part way has
 * already named every file it wrote), the summary, and the tail of a failure message.
 */
final class IngestReport {
    private final Output out;
    private final ObjectStore store;
    private final String tenant;
    private final boolean json;
    private long records;
    private long files;
    private long present;

    IngestReport(Output out, ObjectStore store, String tenant, boolean json) {
        this.out = out;
        this.store = store;
        this.tenant = tenant;
        this.json = json;
    }

    void decoded(long n) {
        records += n;
    }

    void landed(Landing l) {
        files++;
        if (!l.created()) {
            present++;
        }
        var f = l.file();
        if (json) {
            var o = Output.obj();
            o.put("tenant", tenant);
            o.put("partition", f.partition().hourLabel());
            o.put("file", store.describe(f.key()));
            o.put("rows", f.rows());
            o.put("bytes", f.bytes());
            o.put("already_present", !l.created());
            out.jsonLine(o);
        } else {
            out.out().printf("%s  %d rows  %s%s%n", store.describe(f.key()), f.rows(), Units.formatBytes(f.bytes()),
                    l.created() ? "" : "  (already present)");
        }
        out.out().flush();
    }

    void summary() {
        if (!json) {
            out.out().printf("ingested %d records into %d files%s%n", records, files,
                    present == 0 ? "" : " (" + present + " already present)");
        }
    }

    /** Appended to a failure's message: what already landed, and why a re-run is safe. */
    String afterFailure() {
        if (files == 0) {
            return "; nothing landed";
        }
        return "; " + files + " file(s) landed before the failure, listed above (" + present + " already present);"
                + " re-running the same input lands only what is missing";
    }
}
