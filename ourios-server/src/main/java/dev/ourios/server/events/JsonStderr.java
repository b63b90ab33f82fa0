package dev.ourios.server.events;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps the daemon's stderr all JSON lines: whatever else writes to {@code System.err} (the slf4j-simple warnings
 * of the compactor, a JVM stack trace) is turned into one {@link EventLog} event per line instead of interleaving
 * plain text with the structured events.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class JsonStderr extends OutputStream {
    /** slf4j-simple's line: {@code <time> <LEVEL> <logger> - <message>} (simplelogger.properties). */
    private static final Pattern SIMPLE = Pattern.compile("\\S+ (TRACE|DEBUG|INFO|WARN|ERROR) (\\S+) - (.*)");
    private final EventLog events;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    private JsonStderr(EventLog events) {
        this.events = events;
    }

    /** Replaces {@code System.err}; {@code events} must write to the original stream. */
    public static void install(EventLog events) {
        System.setErr(new PrintStream(new JsonStderr(events), true, StandardCharsets.UTF_8));
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            emit();
        } else {
            line.write(b);
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    private void emit() {
        String text = line.toString(StandardCharsets.UTF_8).stripTrailing();
        line.reset();
        if (text.isEmpty()) {
            return;
        }
        Matcher m = SIMPLE.matcher(text);
        if (m.matches()) {
            EventLog.Severity s = switch (m.group(1)) {
                case "ERROR" -> EventLog.Severity.ERROR;
                case "WARN" -> EventLog.Severity.WARN;
                case "INFO" -> EventLog.Severity.INFO;
                default -> EventLog.Severity.DEBUG;
            };
            events.emit(s, "ourios.log", m.group(3), Map.of("log.logger", m.group(2)));
        } else {
            events.emit(EventLog.Severity.WARN, "ourios.log", text, Map.of());
        }
    }
}
