package dev.ourios.security;

/** A keys file that cannot be read or written: one line naming the file and, when it is an entry, the entry and field. */
public final class KeysFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KeysFileException(String message) {
        super(message);
    }

    public KeysFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
