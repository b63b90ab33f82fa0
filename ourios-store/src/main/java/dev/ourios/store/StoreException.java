package dev.ourios.store;

import java.io.IOException;

/** A store operation failed; the message names the object or prefix at fault. */
public class StoreException extends IOException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
