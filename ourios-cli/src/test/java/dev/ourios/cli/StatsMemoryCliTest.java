package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A maximal {@code ourios stats} in a 512 MiB heap answers: thousands of buckets, grouped by a field that takes a new
 * value in nearly every row (a user id), so more groups exist than a table may count one by one. The groups beyond
 * the bound are counted as "other", the answer says so, and every row is counted.
 */
class StatsMemoryCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FROM = "2026-11-01T10:00:00Z";
    private static final String TO = "2026-11-01T12:00:00Z";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void stats_by_a_user_id_per_second_over_two_hours_answers_in_512_mib() throws Exception {
        String store = dir.resolve("s").toString();
        CliProcess.Result gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start", FROM,
                "--hours", "2", "--files-per-hour", "4", "--rows-per-file", "4000");
        assertEquals(0, gen.exit(), gen.err());
        CliProcess.Result count = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--from", FROM,
                "--to", TO, "-q", "attributes.app.user.id:*", "--count");
        assertEquals(0, count.exit(), count.err());
        long users = Long.parseLong(count.outLines().get(0).trim());
        assertTrue(users > 2_000, "too few rows with a user id to mean anything: " + users);

        // 7,200 buckets of one second: 138 groups fit in a table's 1,000,000 counts; thousands of users exist.
        CliProcess.Result stats = CliProcess.run(dir, "stats", "--store", store, "--tenant", "acme", "--from", FROM,
                "--to", TO, "--step", "1s", "--by", "attributes.app.user.id", "--max-groups", "100", "--json");
        assertEquals(0, stats.exit(), stats.err());
        assertFalse(stats.err().contains("OutOfMemoryError"), stats.err());
        JsonNode s = JSON.readTree(stats.outLines().get(0));
        assertEquals(7_200, s.get("buckets").size());
        assertTrue(s.get("groups_capped").asBoolean(), stats.out());
        long rows = 0;
        for (JsonNode series : s.get("series")) {
            for (JsonNode n : series.get("counts")) {
                rows += n.asLong();
            }
        }
        assertEquals(s.get("total").asLong(), rows);
        CliProcess.Result all = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--from", FROM,
                "--to", TO, "--count");
        assertEquals(0, all.exit(), all.err());
        assertEquals(Long.parseLong(all.outLines().get(0).trim()), s.get("total").asLong());
    }
}
