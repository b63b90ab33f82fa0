package dev.ourios.cli;

import dev.ourios.compaction.PartitionResult;
import dev.ourios.store.StoreRequests;
import java.util.Map;

/** The per-partition JSON line of {@code compact --json} (CLI.md). */
final class PartitionJson {
    private PartitionJson() {
    }

    static Map<String, Object> of(PartitionResult r) {
        var o = Output.obj();
        o.put("tenant", r.partition().tenantId());
        o.put("partition", label(r));
        o.put("result", r.result().label());
        o.put("action", r.action().label());
        o.put("files_in", r.filesIn());
        o.put("rows", r.rows());
        o.put("bytes_in", r.bytesIn());
        o.put("bytes_out", r.bytesOut());
        o.put("generation", r.generation());
        o.put("output", r.output());
        if (r.outputs().size() > 1) {
            o.put("outputs", r.outputNames()); // a band: every file, in sort-key order; "output" is the first
        }
        o.put("error", r.error());
        if (r.reason() != null) {
            o.put("reason", r.reason());
        }
        r.requests().ifPresent(q -> o.put("requests", requests(q)));
        o.put("seconds", Math.round(r.seconds() * 1000) / 1000.0);
        return o;
    }

    /** The hour {@code YYYY-MM-DDTHH}, or for a day partition's outcome the day {@code YYYY-MM-DD}. */
    static String label(PartitionResult r) {
        String hour = r.partition().hourLabel();
        return r.day() ? hour.substring(0, hour.indexOf('T')) : hour;
    }

    /** {@code {"list","head","get","get_bytes","put","delete"}}: the store requests of one compaction or sweep. */
    static Map<String, Object> requests(StoreRequests q) {
        var o = Output.obj();
        o.put("list", q.list());
        o.put("head", q.head());
        o.put("get", q.get());
        o.put("get_bytes", q.getBytes());
        o.put("put", q.put());
        o.put("delete", q.delete());
        return o;
    }
}
