package dev.ourios.iceberg;

/** The store's Iceberg view was made in another form than this version writes; it must be rebuilt, not synced. */
public final class ViewFormException extends IllegalStateException {
    public ViewFormException(String message) {
        super(message);
    }
}
