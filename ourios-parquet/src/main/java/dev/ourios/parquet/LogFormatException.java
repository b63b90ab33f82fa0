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

    /**
     * Why a library could not read a file, in one bounded line: parquet-java's thrift messages can print a whole
     * footer structure. A codec id no Parquet version defines reaches us as thrift's "required field 'codec' was
     * not present" (the id does not map to a value) and is said as what it is.
     */
    public static String reason(Throwable e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("Required field 'codec' was not present")) {
            return "its footer names a page codec no Parquet version defines";
        }
        m = m.replace('\n', ' ').replace('\r', ' ');
        return m.length() <= 240 ? m : m.substring(0, 240) + "...";
    }
}
