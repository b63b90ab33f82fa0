package dev.ourios.otlp;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.util.List;

/**
 * A request checked record by record without being converted: {@code kept} holds the {@code accepted} records that
 * can be stored (the request itself when none was refused), {@code rejections} one entry per refused record.
 */
public record Screened(ExportLogsServiceRequest kept, int accepted, List<Rejection> rejections) {
    public Screened {
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
