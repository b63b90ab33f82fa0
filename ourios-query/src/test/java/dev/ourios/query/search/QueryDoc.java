package dev.ourios.query.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.core.BodyKind;
import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.testkit.Testdata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The tables of docs/spec/query.md, read as the tests' data: example rows, examples, errors. */
final class QueryDoc {
    static final long TIME = 1_793_527_200_000_000_000L; // 2026-11-01T10:00:00Z
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> lines;

    private QueryDoc(List<String> lines) {
        this.lines = lines;
    }

    static QueryDoc read() throws IOException {
        return new QueryDoc(Files.readAllLines(Testdata.root().resolveSibling("docs").resolve("spec/query.md"),
                StandardCharsets.UTF_8));
    }

    /** The body rows of the table whose header line starts with {@code header}, cells unescaped. */
    List<List<String>> table(String header) {
        int at = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(header)) {
                at = i;
                break;
            }
        }
        if (at < 0) {
            throw new IllegalStateException("docs/spec/query.md has no table '" + header + "'");
        }
        List<List<String>> rows = new ArrayList<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(cells(lines.get(i)));
        }
        return rows;
    }

    /** The cells of a table line: split on unescaped '|', "\|" read as '|', a code span's backticks removed. */
    static List<String> cells(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        for (int i = 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length() && line.charAt(i + 1) == '|') {
                cell.append('|');
                i++;
            } else if (c == '|') {
                out.add(unspan(cell.toString().trim()));
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        return out;
    }

    private static String unspan(String cell) {
        return cell.length() >= 2 && cell.startsWith("`") && cell.endsWith("`")
                ? cell.substring(1, cell.length() - 1) : cell;
    }

    /** The example rows of section 9, by name. */
    Map<String, LogRecord> exampleRows() throws IOException {
        Map<String, LogRecord> rows = new LinkedHashMap<>();
        for (List<String> r : table("| row | severity |")) {
            LogRecord.Builder b = LogRecord.builder("acme").timeUnixNano(TIME)
                    .severityNumber(Integer.parseInt(r.get(1)))
                    .templateId(Long.parseUnsignedLong(r.get(4)));
            if (!r.get(2).isEmpty()) {
                b.scopeName(r.get(2));
            }
            if (!r.get(3).isEmpty()) {
                b.traceId(Bytes.fromHex(r.get(3)));
            }
            line(b, r.get(5));
            b.attributes(AttributesJson.encode(keyValues(JSON.readTree(r.get(6)))));
            List<KeyValue> resource = keyValues(JSON.readTree(r.get(7)));
            b.resourceAttributes(AttributesJson.encode(resource));
            AttributesJson.firstString(resource, "service.name").ifPresent(b::serviceName);
            rows.put(r.get(0), b.build());
        }
        return rows;
    }

    /** A line cell: "(none)", a body, or a template whose parameters are marked with braces. */
    private static void line(LogRecord.Builder b, String cell) {
        if (cell.equals("(none)")) {
            b.bodyKind(BodyKind.ABSENT);
            return;
        }
        if (cell.indexOf('{') < 0) {
            b.bodyKind(BodyKind.STRING).body(cell.getBytes(StandardCharsets.UTF_8));
            return;
        }
        List<byte[]> separators = new ArrayList<>();
        List<Param> params = new ArrayList<>();
        int at = 0;
        while (true) {
            int open = cell.indexOf('{', at);
            if (open < 0) {
                separators.add(cell.substring(at).getBytes(StandardCharsets.UTF_8));
                break;
            }
            int close = cell.indexOf('}', open);
            separators.add(cell.substring(at, open).getBytes(StandardCharsets.UTF_8));
            params.add(new Param(6, cell.substring(open + 1, close).getBytes(StandardCharsets.UTF_8)));
            at = close + 1;
        }
        b.bodyKind(BodyKind.ABSENT).separators(separators).params(params).templateVersion(1);
    }

    /** A JSON object as attributes: integral numbers int values, other numbers doubles, arrays array values. */
    static List<KeyValue> keyValues(JsonNode object) {
        List<KeyValue> out = new ArrayList<>();
        object.fields().forEachRemaining(e -> out.add(new KeyValue(e.getKey(), value(e.getValue()))));
        return out;
    }

    private static AnyValue value(JsonNode v) {
        if (v.isIntegralNumber()) {
            return new AnyValue.IntValue(v.longValue());
        }
        if (v.isNumber()) {
            return new AnyValue.DoubleValue(v.doubleValue());
        }
        if (v.isBoolean()) {
            return new AnyValue.BoolValue(v.booleanValue());
        }
        if (v.isArray()) {
            List<AnyValue> values = new ArrayList<>();
            v.forEach(e -> values.add(value(e)));
            return new AnyValue.ArrayValue(values);
        }
        return new AnyValue.StringValue(v.textValue());
    }
}
