package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition whose {@code manifest.json} (the reference implementation's) names three of its five files, through
 * real processes: {@code query}, {@code files} and {@code verify} see exactly those three, {@code compact} merges
 * exactly them and takes the partition over, and {@code gc} then leaves only the output and our manifest.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ReferenceStoreCliTest {
    @TempDir
    Path dir;

    private static List<String> names(Path partition) throws Exception {
        try (Stream<Path> s = Files.list(partition)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void query_files_compact_and_gc_follow_the_reference_manifest() throws Exception {
        String store = dir.resolve("s").toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "5", "--rows-per-file", "100");
        assertEquals(0, gen.exit(), gen.err());
        Path hour = dir.resolve("s/data/tenant_id=acme/year=2026/month=11/day=01/hour=10");
        List<String> all = names(hour);
        assertEquals(5, all.size(), all.toString());
        List<String> named = List.of(all.get(1), all.get(2), all.get(4));
        Files.write(hour.resolve("manifest.json"), ("{\"generation\":3,\"files\":["
                + named.stream().map(f -> "\"" + f + "\"").collect(Collectors.joining(",")) + "]}")
                .getBytes(StandardCharsets.UTF_8));

        assertEquals(List.of("300"), count(store));
        var files = CliProcess.run(dir, "files", "--store", store, "--tenant", "acme");
        assertEquals(0, files.exit(), files.err());
        assertEquals(named, files.outLines().stream().map(l -> l.substring(l.lastIndexOf('/') + 1)).sorted()
                .toList());
        var verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, verify.exit(), verify.out() + verify.err());
        assertTrue(verify.out().contains("gen 3, 3 files, 300 rows"), verify.out());

        var compact = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup");
        assertEquals(0, compact.exit(), compact.err());
        assertEquals(List.of("300"), count(store));
        var gc = CliProcess.run(dir, "gc", "--store", store, "--grace", "0s");
        assertEquals(0, gc.exit(), gc.err());
        List<String> left = names(hour);
        assertEquals(2, left.size(), left.toString());
        assertTrue(left.get(0).endsWith(".compacted.parquet"), left.toString());
        assertEquals("manifest.00000000000000000004.json", left.get(1));
        assertEquals(List.of("300"), count(store));
    }

    private List<String> count(String store) throws Exception {
        var q = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
        assertEquals(0, q.exit(), q.err());
        return q.outLines();
    }
}
