package dev.ourios.iceberg;

/**
 * Where the view's metadata lives in the store: {@code iceberg/logs/} is the table location, and everything the
 * view writes is under {@code iceberg/logs/metadata/}. Nothing of the view is under {@code data/}.
 */
public record ViewLayout(String tablePrefix) {
    /** The one table of the store. */
    public static final ViewLayout DEFAULT = new ViewLayout("iceberg/logs/");

    public ViewLayout {
        if (!tablePrefix.endsWith("/") || tablePrefix.startsWith("/") || tablePrefix.startsWith("data/")) {
            throw new IllegalArgumentException("bad table prefix '" + tablePrefix + "'");
        }
    }

    public String metadataPrefix() {
        return tablePrefix + "metadata/";
    }

    public String versionKey(int version) {
        return metadataPrefix() + "v" + version + ".metadata.json";
    }

    public String versionHintKey() {
        return metadataPrefix() + "version-hint.text";
    }

    /** True for keys the view owns (and may delete): its metadata, never a data file. */
    public boolean owns(String key) {
        return key.startsWith(metadataPrefix());
    }
}
