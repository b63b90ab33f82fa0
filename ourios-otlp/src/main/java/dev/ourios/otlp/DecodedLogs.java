package dev.ourios.otlp;

import dev.ourios.core.LogRecord;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.util.List;

/**
 * One request decoded for one tenant: the records accepted, the same records as a request again ({@code kept}, what
 * the write-ahead log stores, so a replay decodes exactly these records), and one rejection per refused record.
 */
public record DecodedLogs(List<LogRecord> records, ExportLogsServiceRequest kept, List<Rejection> rejections) {
    public DecodedLogs {
        records = List.copyOf(records);
        rejections = List.copyOf(rejections);
    }

    /** The {@code error_message} of a partial success: the first rejection, and how many there were. */
    public String errorMessage() {
        if (rejections.isEmpty()) {
            return "";
        }
        String first = rejections.get(0).message();
        return rejections.size() == 1 ? first : first + " (and " + (rejections.size() - 1) + " more rejected)";
    }
}
