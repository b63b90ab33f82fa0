package dev.ourios.server.query;

import dev.ourios.compaction.DeletionResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One partition's deletion outcome as a JSON object (cli.md, {@code ourios delete}): the lines of
 * {@code ourios delete --json} and the {@code partitions} of {@code POST /v1/delete} are the same objects.
 */
public final class DeletionJson {
    private DeletionJson() {
    }

    public static Map<String, Object> of(DeletionResult r) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("tenant", r.partition().tenantId());
        o.put("partition", r.partition().hourLabel());
        o.put("result", r.status().label());
        o.put("generation", r.generation());
        o.put("files_in", r.filesIn());
        o.put("rows_in", r.rowsIn());
        o.put("rows_removed", r.rowsRemoved());
        o.put("rows_out", r.rowsOut());
        o.put("output", r.output());
        if (r.outputs().size() > 1) {
            o.put("outputs", r.outputs()); // a band: every file, in sort-key order; "output" is the first
        }
        o.put("error", r.error());
        o.put("seconds", Math.round(r.seconds() * 1000) / 1000.0);
        return o;
    }
}
