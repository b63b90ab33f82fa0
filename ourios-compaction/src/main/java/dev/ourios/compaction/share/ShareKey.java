package dev.ourios.compaction.share;

import dev.ourios.core.SortKey;

/**
 * A point of the compaction sort key without its tie-break (docs/spec/storage.md 4.4): a service name (null sorts
 * first) and an effective time. A share's bounds are such keys.
 */
public record ShareKey(String service, long time) implements Comparable<ShareKey> {

    /** The order of the sort key: service by UTF-8 bytes (null first), then time. */
    public static int compare(String service, long time, String otherService, long otherTime) {
        int c = SortKey.compareServices(service, otherService);
        return c != 0 ? c : Long.compare(time, otherTime);
    }

    @Override
    public int compareTo(ShareKey o) {
        return compare(service, time, o.service, o.time);
    }
}
