package dev.ourios.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** Writes Collector-file-exporter-shaped OTLP/JSON: one request per line, seeded, spread over two hours. */
final class OtlpLinesFile {
    static final long HOUR_10 = 1_793_527_200_000_000_000L; // 2026-11-01T10:00:00Z
    private static final String[] SERVICES = {"cart", "checkout", "frontend", "payment", "shipping"};

    private OtlpLinesFile() {
    }

    /** Writes lines until the file holds at least {@code bytes}; returns the records written. */
    static long write(Path file, long bytes, int recordsPerLine, long seed) throws IOException {
        Random rnd = new Random(seed);
        long records = 0;
        long written = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            while (written < bytes) {
                String line = line(rnd, recordsPerLine);
                w.write(line);
                w.write('\n');
                written += line.length() + 1;
                records += recordsPerLine;
            }
        }
        return records;
    }

    static String line(Random rnd, int records) {
        StringBuilder sb = new StringBuilder(records * 480);
        sb.append("{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"")
                .append(SERVICES[rnd.nextInt(SERVICES.length)])
                .append("\"}},{\"key\":\"host.name\",\"value\":{\"stringValue\":\"node-").append(rnd.nextInt(8))
                .append("\"}}]},\"scopeLogs\":[{\"scope\":{\"name\":\"app.logger\",\"version\":\"1.4.0\"},\"logRecords\":[");
        for (int i = 0; i < records; i++) {
            if (i > 0) {
                sb.append(',');
            }
            long t = HOUR_10 + (long) (rnd.nextDouble() * 7_200_000_000_000L);
            sb.append("{\"timeUnixNano\":\"").append(t).append("\",\"observedTimeUnixNano\":\"").append(t + 1000)
                    .append("\",\"severityNumber\":").append(1 + rnd.nextInt(24))
                    .append(",\"severityText\":\"INFO\",\"traceId\":\"").append(hex(rnd, 16)).append("\",\"spanId\":\"")
                    .append(hex(rnd, 8)).append("\",\"body\":{\"stringValue\":\"order ").append(rnd.nextInt(1_000_000))
                    .append(" processed for user ").append(hex(rnd, 6)).append(" in ").append(rnd.nextInt(900))
                    .append(" ms\"},\"attributes\":[{\"key\":\"http.route\",\"value\":{\"stringValue\":\"/api/v1/")
                    .append(rnd.nextInt(40)).append("\"}},{\"key\":\"latency\",\"value\":{\"doubleValue\":")
                    .append(rnd.nextDouble()).append("}}]}");
        }
        return sb.append("]}]}]}").toString();
    }

    private static String hex(Random rnd, int bytes) {
        StringBuilder sb = new StringBuilder(bytes * 2);
        for (int i = 0; i < bytes; i++) {
            sb.append(String.format("%02x", rnd.nextInt(256)));
        }
        return sb.toString();
    }
}
