package dev.ourios.table;

import java.io.IOException;

/**
 * A partition's manifest is unusable: malformed, invalid, or inconsistent with the objects present. Never fixed
 * silently: the partition stays unreadable (and GC leaves it alone) until an operator looks at it.
 */
public class ManifestException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String manifestKey;

    public ManifestException(String manifestKey, String problem) {
        super("manifest " + manifestKey + ": " + problem);
        this.manifestKey = manifestKey;
    }

    public ManifestException(String manifestKey, String problem, Throwable cause) {
        super("manifest " + manifestKey + ": " + problem, cause);
        this.manifestKey = manifestKey;
    }

    /** Store key of the offending manifest. */
    public String manifestKey() {
        return manifestKey;
    }
}
