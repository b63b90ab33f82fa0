package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention through the real CLI: {@code compact --retention} with a per-tenant override expires whole hours by a
 * commit with {@code files: []}, each expiry is an {@code expire} event DuckDB reads from the audit series,
 * {@code verify} passes afterwards, {@code ingest --retention} refuses what is already expired with one line, and
 * the configuration's {@code retention.tenants} is checked key by key.
 */
class RetentionCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private long count(String store, String tenant) throws Exception {
        var c = CliProcess.run(dir, "query", "--store", store, "--tenant", tenant, "--count");
        assertEquals(0, c.exit(), c.err());
        return Long.parseLong(c.outLines().get(0).trim());
    }

    @Test
    void compactExpiresWholeHoursPastTheTenantsRetentionAndTheAuditShowsIt() throws Exception {
        String store = dir.resolve("s").toString();
        for (String tenant : List.of("acme", "beta")) {
            var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", tenant, "--start",
                    "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "3", "--rows-per-file", "100");
            assertEquals(0, gen.exit(), gen.err());
        }
        var dry = CliProcess.run(dir, "compact", "--store", store, "--dry-run", "--now", "2026-11-05T00:00:00Z",
                "--retention", "3d", "--retention-tenant", "beta=30d");
        assertEquals(0, dry.exit(), dry.err());
        assertTrue(dry.out().contains("2 to expire"), dry.out());
        assertEquals(600, count(store, "acme"), "a dry run changes nothing");

        var r = CliProcess.run(dir, "compact", "--store", store, "--once", "--json", "--now", "2026-11-05T00:00:00Z",
                "--retention", "3d", "--retention-tenant", "beta=30d");
        assertEquals(0, r.exit(), r.err());
        List<JsonNode> lines = new ArrayList<>();
        for (String l : r.outLines()) {
            lines.add(JSON.readTree(l));
        }
        List<JsonNode> expired = lines.stream().filter(n -> "expire".equals(n.path("action").asText())).toList();
        assertEquals(2, expired.size(), r.out());
        for (JsonNode n : expired) {
            assertEquals("acme", n.get("tenant").asText());
            assertEquals("committed", n.get("result").asText());
            assertEquals(300, n.get("rows").asLong());
            assertEquals("retention 3d", n.get("reason").asText());
        }
        JsonNode summary = lines.get(lines.size() - 1).get("summary");
        assertEquals(2, summary.get("expired").asLong(), r.out());
        assertEquals(0, count(store, "acme"));
        assertEquals(600, count(store, "beta"), "beta keeps 30 days");

        Path manifest = dir.resolve("s/data/tenant_id=acme/year=2026/month=11/day=01/hour=10/"
                + "manifest.00000000000000000001.json");
        JsonNode m = JSON.readTree(Files.readAllBytes(manifest));
        assertEquals(0, m.get("files").size());
        assertEquals(3, m.get("retired").size());
        assertEquals("expire", m.get("commit").get("kind").asText());
        assertEquals(300, m.get("commit").get("rows_removed").asLong());

        var verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, verify.exit(), verify.out() + verify.err());
        var auditFiles = CliProcess.run(dir, "files", "--store", store, "--tenant", "acme", "--audit");
        assertEquals(0, auditFiles.exit(), auditFiles.err());
        assertEquals(2, auditFiles.outLines().size(), "one expire event per hour: " + auditFiles.out());
        assertTrue(auditFiles.outLines().stream().allMatch(l -> l.contains("/audit/tenant_id=acme/")), auditFiles.out());

        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = c.createStatement().executeQuery("SELECT event_kind, compaction_partition, "
                        + "rows_removed, reason, len(compaction_input_files) FROM read_parquet('" + store
                        + "/audit/**/*.parquet') WHERE event_type = 'expire' ORDER BY compaction_partition")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getLong(3) + " " + rs.getString(4) + " "
                        + rs.getInt(5));
            }
            assertEquals(List.of("4 year=2026/month=11/day=01/hour=10 300 retention 3d 3",
                    "4 year=2026/month=11/day=01/hour=11 300 retention 3d 3"), rows);
        }
    }

    @Test
    void ingestRefusesRecordsAlreadyPastTheRetentionWithOneLine() throws Exception {
        Path in = dir.resolve("old.jsonl");
        long records = OtlpLinesFile.write(in, 20_000, 5, 3);
        String store = dir.resolve("s").toString();
        var r = CliProcess.run(dir, "ingest", "--store", store, "--tenant", "acme", "--retention", "1d",
                in.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains(records + " record(s) not landed: line 1: record at 2026-11-01T10:"), r.err());
        assertTrue(r.err().contains("older than the retention of tenant 'acme' (1d)"), r.err());
        assertTrue(r.out().contains("ingested 0 records into 0 files; " + records
                + " older than the retention not landed"), r.out());
        var bad = CliProcess.run(dir, "ingest", "--store", store, "--tenant", "acme", "--retention", "0d",
                in.toString());
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().contains("--retention: must be positive"), bad.err());
    }

    @Test
    void theConfigurationsRetentionIsCheckedKeyByKey() throws Exception {
        Path good = dir.resolve("good.yaml");
        Files.writeString(good, "retention:\n  default: 30d\n  tenants:\n    acme: 7d\n    \"b/c\": 400d\n");
        var ok = CliProcess.run(dir, "config", "check", "--config", good.toString());
        assertEquals(0, ok.exit(), ok.err());
        assertTrue(ok.out().contains("  default: 30d  # file "), ok.out());
        assertTrue(ok.out().contains("  tenants:\n    acme: 7d  # file "), ok.out());

        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "retention:\n  tenants:\n    acme: 0s\n");
        var no = CliProcess.run(dir, "config", "check", "--config", bad.toString());
        assertEquals(2, no.exit(), no.err());
        assertTrue(no.err().contains("retention.tenants.acme: must be positive"), no.err());

        Path typo = dir.resolve("typo.yaml");
        Files.writeString(typo, "retention:\n  tenants:\n    acme: soon\n");
        var t = CliProcess.run(dir, "config", "check", "--config", typo.toString());
        assertEquals(2, t.exit(), t.err());
        assertTrue(t.err().contains("retention.tenants.acme: 'soon' is not a duration"), t.err());
    }
}
