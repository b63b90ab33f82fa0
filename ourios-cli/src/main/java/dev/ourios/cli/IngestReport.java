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
    private long expired;
    private String firstExpired;

    IngestReport(Output out, ObjectStore store, String tenant, boolean json) {
        this.out = out;
        this.store = store;
        this.tenant = tenant;
        this.json = json;
    }

    void decoded(long n) {
        records += n;
    }

    /** {@code n} records refused as older than the tenant's retention; {@code example} describes the first. */
    void expired(long n, String example) {
        if (n > 0 && firstExpired == null) {
            firstExpired = example;
        }
        expired += n;
    }

    /** The records refused for retention, as one line on stderr (empty when none was). */
    String expiredLine() {
        return expired == 0 ? "" : "ourios: " + expired + " record(s) not landed: " + firstExpired
                + (expired > 1 ? " (and " + (expired - 1) + " more)" : "");
    }

    long expiredCount() {
        return expired;
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
        if (expired > 0) {
            out.err().println(expiredLine());
        }
        if (json) {
            if (expired > 0) {
                var o = Output.obj();
                o.put("records", records - expired);
                o.put("files", files);
                o.put("rejected_retention", expired);
                out.jsonLine(java.util.Map.of("summary", o));
            }
        } else {
            out.out().printf("ingested %d records into %d files%s%s%n", records - expired, files,
                    present == 0 ? "" : " (" + present + " already present)",
                    expired == 0 ? "" : "; " + expired + " older than the retention not landed");
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
