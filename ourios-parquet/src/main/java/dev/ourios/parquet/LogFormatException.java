package dev.ourios.parquet;

import java.io.IOException;

/** A file is not a readable log file: not Parquet, truncated, or missing a REQUIRED column. Names the file. */
public class LogFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public LogFormatException(String message) {
        super(message);
    }

    public LogFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
