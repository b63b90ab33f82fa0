package dev.ourios.table;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;

/** Store keys of manifests. */
public final class ManifestKeys {
    private ManifestKeys() {
    }

    /** {@code data/tenant_id=…/hour=HH/manifest.<20 digits>.json}. */
    public static String key(PartitionKey partition, long generation) {
        return partition.dataPrefix() + FileNames.manifestName(generation);
    }

    /** The generation a key names, or -1 if its last component is not a canonical manifest name. */
    public static long generationOf(String key) {
        int slash = key.lastIndexOf('/');
        return FileNames.manifestGeneration(slash < 0 ? key : key.substring(slash + 1));
    }
}
