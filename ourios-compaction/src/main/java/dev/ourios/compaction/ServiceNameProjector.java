package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AttributesJson;

/**
 * Re-projection (STORAGE.md §5): recomputes the derived columns of a row from its source columns, so rows from older
 * files gain them and the sort key uses the same derived values. Resource attributes repeat across rows of one
 * service, so the last JSON string and its answer are kept (identity first, then equality).
 */
final class ServiceNameProjector {
    private String lastJson;
    private String lastService;

    LogRecord project(LogRecord r) {
        String json = r.resourceAttributes();
        if (json != lastJson && !json.equals(lastJson)) {
            lastService = AttributesJson.firstString(json, "service.name").orElse(null);
        }
        lastJson = json;
        return r.reprojected(lastService);
    }
}
