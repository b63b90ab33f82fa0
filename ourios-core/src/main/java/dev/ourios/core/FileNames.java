package dev.ourios.core;

/** Names of the objects in a partition (STORAGE.md §1, §3). */
public final class FileNames {
    public static final String PARQUET = ".parquet";
    public static final String COMPACTED = ".compacted.parquet";
    public static final String MANIFEST_PREFIX = "manifest.";
    public static final String MANIFEST_SUFFIX = ".json";
    /** The share records of a rewrite shared between compactor processes (STORAGE.md §4.14). */
    public static final String SHARE_PREFIX = "share.";

    private FileNames() {
    }

    /** {@code <uuidv7>.parquet}: a file an ingest writer landed. */
    public static boolean isIngestFile(String name) {
        return name.endsWith(PARQUET) && !name.endsWith(COMPACTED)
                && Uuid7.isUuid7(name.substring(0, name.length() - PARQUET.length()));
    }

    /** {@code <uuidv7>.compacted.parquet}: a compaction output, live only when a manifest names it. */
    public static boolean isCompactedFile(String name) {
        return name.endsWith(COMPACTED) && Uuid7.isUuid7(name.substring(0, name.length() - COMPACTED.length()));
    }

    /**
     * {@code share.<16 hex digits>.<group>.<uuidv7>.json}: a share record of a rewrite shared between compactor
     * processes (STORAGE.md §4.14), never read as data, collected after the GC grace.
     */
    public static boolean isShareRecord(String name) {
        if (name.length() <= SHARE_PREFIX.length() + MANIFEST_SUFFIX.length() || !name.startsWith(SHARE_PREFIX)
                || !name.endsWith(MANIFEST_SUFFIX)) {
            return false;
        }
        String[] parts = name.substring(SHARE_PREFIX.length(), name.length() - MANIFEST_SUFFIX.length())
                .split("\\.", -1);
        return parts.length == 3 && parts[0].matches("[0-9a-f]{16}") && parts[1].matches("0|[1-9][0-9]{0,2}")
                && Uuid7.isUuid7(parts[2]);
    }

    /** The name of group {@code group}'s share record of plan {@code planId}, with the fresh {@code uuid}. */
    public static String shareRecordName(String planId, int group, String uuid) {
        return SHARE_PREFIX + planId + "." + group + "." + uuid + MANIFEST_SUFFIX;
    }

    /** Temp siblings start with a dot; no reader ever matches them. */
    public static boolean isTempFile(String name) {
        return name.startsWith(".") && name.contains(".tmp-");
    }

    public static String manifestName(long generation) {
        return MANIFEST_PREFIX + String.format("%020d", generation) + MANIFEST_SUFFIX;
    }

    /** The generation encoded in a manifest name, or -1 if the name is not a canonical manifest name. */
    public static long manifestGeneration(String name) {
        if (name.length() != MANIFEST_PREFIX.length() + 20 + MANIFEST_SUFFIX.length()
                || !name.startsWith(MANIFEST_PREFIX) || !name.endsWith(MANIFEST_SUFFIX)) {
            return -1;
        }
        // A loop rather than a stream and Long.parseLong: a query decides thousands of listed names with this.
        long generation = 0;
        for (int i = MANIFEST_PREFIX.length(), end = name.length() - MANIFEST_SUFFIX.length(); i < end; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            int digit = c - '0';
            if (generation > (Long.MAX_VALUE - digit) / 10) {
                return -1; // beyond a long, as Long.parseLong would refuse it
            }
            generation = generation * 10 + digit;
        }
        return generation;
    }
}
