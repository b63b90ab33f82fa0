package dev.ourios.server;

/**
 * The service cannot start with the settings it was given: an address that does not resolve or bind, a TLS file or
 * keys file that does not read, a listen address the authorization rule refuses, a write-ahead log directory that
 * cannot be opened. The message is one line naming the setting at fault; the command line exits 2 on it.
 */
public final class StartupException extends RuntimeException {
    public StartupException(String message) {
        super(message);
    }

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
