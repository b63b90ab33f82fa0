package dev.ourios.table;

/**
 * The current manifest names a file that is not in the partition. Readers cannot serve the partition: the named
 * file held rows that are no longer anywhere else (its inputs may already be collected).
 */
public final class MissingFileException extends ManifestException {
    private static final long serialVersionUID = 1L;
    private final String missingFile;

    public MissingFileException(String manifestKey, String missingFile) {
        super(manifestKey, "names '" + missingFile + "', which is not present in the partition; restore the file "
                + "or replace the manifest with a new generation that does not name it");
        this.missingFile = missingFile;
    }

    public String missingFile() {
        return missingFile;
    }
}
