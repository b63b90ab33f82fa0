package dev.ourios.server.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The daemon's structured log: one JSON object per line per event, with the field names of the OpenTelemetry log
 * data model ({@code Timestamp}, {@code SeverityText}, {@code SeverityNumber}, {@code EventName}, {@code Body},
 * {@code Attributes}, {@code Resource}; no trace fields, nothing here runs in a trace), so a Collector's filelog
 * receiver or any JSON-lines shipper maps it without a parser of its own. Timestamp is RFC 3339 in UTC.
 */
public final class EventLog {
    /** The data model's severity ranges: the first number of each range. */
    public enum Severity {
        DEBUG(5), INFO(9), WARN(13), ERROR(17);

        final int number;

        Severity(int number) {
            this.number = number;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> RESOURCE = Map.of("service.name", "ourios");
    private final PrintStream out;
    private final Clock clock;

    public EventLog(PrintStream out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    public void info(String event, String body, Map<String, ?> attributes) {
        emit(Severity.INFO, event, body, attributes);
    }

    public void warn(String event, String body, Map<String, ?> attributes) {
        emit(Severity.WARN, event, body, attributes);
    }

    public void emit(Severity severity, String event, String body, Map<String, ?> attributes) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("Timestamp", clock.instant().toString());
        line.put("SeverityText", severity.name());
        line.put("SeverityNumber", severity.number);
        line.put("EventName", event);
        line.put("Body", body);
        line.put("Attributes", attributes);
        line.put("Resource", RESOURCE);
        String text;
        try {
            text = JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            text = "{\"SeverityText\":\"ERROR\",\"Body\":\"BUG: unencodable event " + event + "\"}";
        }
        synchronized (out) { // whole lines only, whichever thread logs
            out.println(text);
            out.flush();
        }
    }
}
