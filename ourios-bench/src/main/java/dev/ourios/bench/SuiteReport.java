package dev.ourios.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of one suite: the command that produced it, the machine, the data shapes, one table of rows and
 * free-text findings. Rendered as Markdown (pasted into docs/benchmarks.md as is) and as JSON (checked by the smoke
 * test and read back by the scaling suite from its child JVMs).
 */
public record SuiteReport(String suite, String command, Machine machine, List<String> shapes,
        List<Map<String, Object>> rows, List<String> notes) {

    public SuiteReport {
        shapes = List.copyOf(shapes);
        rows = rows.stream().map(r -> (Map<String, Object>) new LinkedHashMap<>(r)).toList();
        notes = List.copyOf(notes);
    }

    /** Builds a report row by row. */
    public static final class Builder {
        private final String suite;
        private final String command;
        private final List<String> shapes = new ArrayList<>();
        private final List<Map<String, Object>> rows = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        public Builder(String suite, String command) {
            this.suite = suite;
            this.command = command;
        }

        public Builder shape(String s) {
            shapes.add(s);
            return this;
        }

        public Builder row(Map<String, Object> r) {
            rows.add(r);
            return this;
        }

        public Builder note(String n) {
            notes.add(n);
            return this;
        }

        public SuiteReport build() {
            return new SuiteReport(suite, command, Machine.current(), shapes, rows, notes);
        }
    }

    public String toJson() {
        try {
            return new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(this);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("BUG: report not serialisable", e);
        }
    }

    public static SuiteReport fromJson(String json) {
        try {
            return new ObjectMapper().readValue(json, SuiteReport.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a suite report: " + e.getMessage(), e);
        }
    }

    public String toMarkdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("### ").append(suite).append("\n\n");
        sb.append("* command: `").append(command).append("`\n");
        sb.append("* machine: ").append(machine.describe()).append('\n');
        for (String s : shapes) {
            sb.append("* data: ").append(s).append('\n');
        }
        sb.append('\n');
        if (!rows.isEmpty()) {
            List<String> cols = new ArrayList<>();
            for (Map<String, Object> r : rows) {
                for (String k : r.keySet()) {
                    if (!cols.contains(k)) {
                        cols.add(k);
                    }
                }
            }
            sb.append("| ").append(String.join(" | ", cols)).append(" |\n");
            sb.append("|").append("---|".repeat(cols.size())).append('\n');
            for (Map<String, Object> r : rows) {
                sb.append('|');
                for (String c : cols) {
                    sb.append(' ').append(format(r.get(c))).append(" |");
                }
                sb.append('\n');
            }
            sb.append('\n');
        }
        for (String n : notes) {
            sb.append("* ").append(n).append('\n');
        }
        return sb.toString();
    }

    private static String format(Object v) {
        if (v == null) {
            return "—";
        }
        if (v instanceof Double d) {
            double a = Math.abs(d);
            return a >= 100 ? String.format("%.1f", d) : a >= 1 ? String.format("%.2f", d) : String.format("%.3f", d);
        }
        if (v instanceof Long || v instanceof Integer) {
            return String.format("%,d", ((Number) v).longValue());
        }
        return v.toString();
    }
}
