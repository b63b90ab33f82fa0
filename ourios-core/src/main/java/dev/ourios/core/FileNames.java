package dev.ourios.core;

/** Names of the objects in a partition (STORAGE.md §1, §3). */
public final class FileNames {
    public static final String PARQUET = ".parquet";
    public static final String COMPACTED = ".compacted.parquet";
    public static final String MANIFEST_PREFIX = "manifest.";
    public static final String MANIFEST_SUFFIX = ".json";

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
