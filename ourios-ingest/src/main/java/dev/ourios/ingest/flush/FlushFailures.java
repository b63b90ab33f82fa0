package dev.ourios.ingest.flush;

import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.file.FileSystemException;
import java.util.Locale;

/**
 * Sorts a failed flush into one a retry may fix (the store is down or slow, a disk is full: it heals) and one it
 * will not (the segment's bytes cannot become files: a payload that does not parse or decode, a record no file can
 * hold, a path the file system refuses by its shape: a name too long, a file where a directory must be). A segment of the second kind is quarantined rather than
 * retried, so it cannot hold back the segments behind it.
 */
public final class FlushFailures {
    private FlushFailures() {
    }

    public static boolean permanent(Throwable e) {
        if (e instanceof PoisonSegmentException || e instanceof InvalidProtocolBufferException) {
            return true;
        }
        if (e instanceof IllegalArgumentException || e instanceof ArithmeticException) {
            // Thrown by decoding and by the file format for a value it cannot hold; never by a store I/O path.
            return true;
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            String reason = fs.getReason().toLowerCase(Locale.ROOT);
            // ENAMETOOLONG: a partition path over the file system's name limit (a tenant id from before the limit);
            // ENOTDIR: a file where the partition's directory must be, which stays until an operator removes it.
            return reason.contains("name too long") || reason.contains("not a directory");
        }
        Throwable cause = e.getCause();
        return cause != null && cause != e && permanent(cause);
    }

    /**
     * A short description for answers and readiness, never naming a path: a file-system failure's reason (e.g.
     * "No space left on device"), an I/O error's own message when it names no path, else the failure's kind.
     */
    public static String describe(Throwable e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        String m = e.getMessage();
        return m != null && !m.contains("/") && !m.contains("\\") && m.length() < 120
                ? m : e.getClass().getSimpleName();
    }
}
