package dev.ourios.table;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;

/** Store keys of manifests. */
public final class ManifestKeys {
    /** The reference implementation's one mutable manifest of a partition (STORAGE.md §3.6). */
    public static final String REFERENCE_NAME = "manifest.json";

    private ManifestKeys() {
    }

    /** True if the last component of {@code key} is the reference implementation's manifest name. */
    public static boolean isReference(String key) {
        int slash = key.lastIndexOf('/');
        return (slash < 0 ? key : key.substring(slash + 1)).equals(REFERENCE_NAME);
    }

    /** {@code data/tenant_id=…/hour=HH/manifest.<20 digits>.json}. */
    public static String key(PartitionKey partition, long generation) {
        return partition.dataPrefix() + FileNames.manifestName(generation);
    }

    /** The generation a key names, or -1 if its last component is not a canonical manifest name. */
    public static long generationOf(String key) {
        int slash = key.lastIndexOf('/');
        return generationOfName(slash < 0 ? key : key.substring(slash + 1));
    }

    /**
     * The generation of a manifest file name, or -1 if it is not canonical. Guards the length first because
     * {@link FileNames#manifestGeneration} throws on {@code manifest.json} (prefix and suffix overlap), the name
     * the reference implementation uses ({@link #REFERENCE_NAME}), which is not one of our generations.
     */
    public static long generationOfName(String name) {
        int canonicalLength = FileNames.MANIFEST_PREFIX.length() + 20 + FileNames.MANIFEST_SUFFIX.length();
        return name.length() == canonicalLength ? FileNames.manifestGeneration(name) : -1;
    }
}
