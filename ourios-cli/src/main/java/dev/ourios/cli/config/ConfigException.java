package dev.ourios.cli.config;

import dev.ourios.cli.UsageException;

/** A configuration that cannot be used: one line naming the key and where its value came from; exit status 2. */
public final class ConfigException extends UsageException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
