package dev.ourios.cli;

import dev.ourios.parquet.LogFormatException;
import dev.ourios.parquet.read.PartitionMismatchException;
import dev.ourios.table.ManifestException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

/** Which failures are bad input (exit 2) rather than a job that ran and failed (exit 1). */
final class ErrorKinds {
    private ErrorKinds() {
    }

    static boolean isBadInput(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof LogFormatException || t instanceof PartitionMismatchException
                    || t instanceof ManifestException || t instanceof NoSuchFileException
                    || t instanceof AccessDeniedException || t instanceof IllegalArgumentException) {
                return true;
            }
        }
        return false;
    }
}
