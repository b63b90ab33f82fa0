package dev.ourios.store;

/** The object does not exist (any more): for a planned file that vanished, callers may re-resolve once. */
public class NoSuchObjectException extends StoreException {
    private static final long serialVersionUID = 1L;

    public NoSuchObjectException(String message) {
        super(message);
    }
}
