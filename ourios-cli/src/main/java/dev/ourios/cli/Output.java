package dev.ourios.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/** Machine-readable output (one JSON object per line) and progress on stderr when it is a terminal. */
public final class Output {
    /**
     * The mapper is made on first use: building one loads about 500 of Jackson's classes, which a command printing
     * no JSON (a count, a table) would pay for at every start.
     */
    private static final class Json {
        private static final ObjectMapper MAPPER = new ObjectMapper();
    }

    private final PrintStream out;
    private final PrintStream err;
    private final boolean interactive;

    public Output(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
        this.interactive = System.console() != null;
    }

    public static Output system() {
        return new Output(System.out, System.err);
    }

    public PrintStream out() {
        return out;
    }

    public PrintStream err() {
        return err;
    }

    public void jsonLine(Map<String, ?> object) {
        try {
            out.println(Json.MAPPER.writeValueAsString(object));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: cannot encode " + object, e);
        }
    }

    public static String json(Object value) {
        try {
            return Json.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: cannot encode " + value, e);
        }
    }

    /** A one-line progress indicator, only when stderr is a terminal (never in pipes, CI or tests). */
    public void progress(String label, long done, long total) {
        if (!interactive) {
            return;
        }
        int width = 30;
        int filled = total <= 0 ? width : (int) Math.min(width, done * width / total);
        err.print("\r" + label + " [" + "#".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/" + total);
        if (done >= total) {
            err.println();
        }
        err.flush();
    }

    public static Map<String, Object> obj() {
        return new LinkedHashMap<>();
    }
}
