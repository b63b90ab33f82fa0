package dev.ourios.otlp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.JsonPathException;
import dev.ourios.core.json.JsonTrees;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Streams OTLP/JSON input into records a piece at a time, so memory follows the largest piece, never the input:
 * <ul>
 *   <li><b>One document per line</b> (the Collector's file exporter; blank lines skipped): one line at a time. A
 *       line holding a second document, or anything else after its document, is an error, never dropped.</li>
 *   <li><b>One pretty-printed document</b>, recognised by a first non-blank line that ends inside a JSON value:
 *       one {@code resourceLogs} element at a time.</li>
 * </ul>
 * Every error is a {@link JsonPathException} whose path starts with the 1-based line ({@code line 7:
 * resourceLogs[0]…}).
 */
public final class OtlpJsonStream {
    /** How far back mode detection can rewind; a pretty-printed document's first line is a few characters. */
    private static final int DETECT_LIMIT = 64 * 1024;

    /** Receives the records of one line (or one {@code resourceLogs} element) and the line it started on. */
    public interface Sink {
        void accept(List<LogRecord> records, long line) throws IOException;
    }

    private OtlpJsonStream() {
    }

    /** Reads all of {@code in} (UTF-8 decoding is the caller's); I/O errors pass through unchanged. */
    public static void read(String tenantId, Reader in, Sink sink) throws IOException {
        if (tenantId == null || tenantId.isEmpty()) {
            throw new IllegalArgumentException("tenant id must not be empty");
        }
        BufferedReader r = in instanceof BufferedReader b ? b : new BufferedReader(in, 1 << 16);
        long lineNo = 0;
        String line;
        do {
            r.mark(DETECT_LIMIT);
            line = r.readLine();
            lineNo++;
        } while (line != null && line.isBlank());
        if (line == null) {
            return;
        }
        if (JsonTrees.endsInsideAValue(line) && rewind(r)) {
            readDocument(tenantId, r, lineNo - 1, sink);
        } else {
            readLines(tenantId, r, line, lineNo, sink);
        }
    }

    private static boolean rewind(BufferedReader r) {
        try {
            r.reset();
            return true;
        } catch (IOException markLost) {
            return false; // a first line longer than the limit: read as lines, where it fails with its line number
        }
    }

    private static void readLines(String tenantId, BufferedReader r, String first, long firstNo, Sink sink)
            throws IOException {
        long lineNo = firstNo;
        for (String line = first; line != null; line = r.readLine(), lineNo++) {
            if (line.isBlank()) {
                continue;
            }
            List<LogRecord> records;
            try {
                records = OtlpJsonDecoder.decode(tenantId, line);
            } catch (JsonPathException e) {
                throw at(lineNo, e);
            }
            sink.accept(records, lineNo);
        }
    }

    /** The document streamed member by member; each {@code resourceLogs} element is decoded on its own. */
    private static void readDocument(String tenantId, BufferedReader r, long lineOffset, Sink sink)
            throws IOException {
        JsonParser p = OtlpJsonDecoder.JSON.createParser(r);
        try {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new JsonPathException("", "expected a JSON object {\"resourceLogs\":[…]}");
            }
            boolean seen = false;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                boolean logs = name.equals("resourceLogs") || name.equals("resource_logs");
                if (!logs || value == JsonToken.VALUE_NULL || seen) {
                    // proto3 JSON: unknown members are ignored; the first non-null spelling of a member wins.
                    p.skipChildren();
                    continue;
                }
                if (value != JsonToken.START_ARRAY) {
                    throw new JsonPathException("resourceLogs", "expected an array, got " + value);
                }
                seen = true;
                int index = 0;
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken(), index++) {
                    long line = lineOffset + p.currentTokenLocation().getLineNr();
                    List<LogRecord> records = new ArrayList<>();
                    try {
                        OtlpJsonDecoder.decodeResourceLogs(tenantId, JsonTrees.readValue(p), index, records);
                    } catch (JsonPathException ex) {
                        throw at(line, ex);
                    }
                    sink.accept(records, line);
                }
            }
            JsonToken after;
            try {
                after = p.nextToken();
            } catch (JsonProcessingException e) {
                throw new JsonPathException("", "trailing content after the JSON document", e);
            }
            if (after != null) {
                throw new JsonPathException("", after == JsonToken.START_OBJECT || after == JsonToken.START_ARRAY
                        ? "more than one JSON document (a pretty-printed input holds exactly one)"
                        : "trailing content after the JSON document");
            }
        } catch (JsonProcessingException e) {
            throw at(lineOffset + p.currentLocation().getLineNr(),
                    new JsonPathException("", "malformed JSON: " + e.getOriginalMessage(), e));
        } catch (JsonPathException e) {
            if (e.path().startsWith("line ")) {
                throw e;
            }
            throw at(lineOffset + p.currentLocation().getLineNr(), e);
        }
    }

    private static JsonPathException at(long line, JsonPathException e) {
        String where = e.path().isEmpty() ? "line " + line : "line " + line + ": " + e.path();
        return new JsonPathException(where, e.problem(), e);
    }
}
