package dev.ourios.compaction.sort;

import dev.ourios.core.json.FirstStringCache;

/**
 * Re-projection (STORAGE.md §5): the derived service name of a row, recomputed from its resource attributes as the
 * input readers encode it, so rows from older files gain it and the sort key uses the same derived value. Resource
 * attributes repeat across rows of one service, so the last JSON string and its answer are kept (identity check),
 * backed by a bounded LRU of answers: ingest files interleave services row by row, so with the last answer alone the
 * JSON would be parsed again on nearly every row.
 */
final class ServiceNameProjector {
    private final FirstStringCache cache = FirstStringCache.serviceName();
    private String lastJson;
    private String lastService;

    /** The service name the resource attributes {@code json} carry, or null. */
    String serviceOf(String json) {
        if (json != lastJson) {
            lastService = cache.get(json).orElse(null);
            lastJson = json;
        }
        return lastService;
    }
}
