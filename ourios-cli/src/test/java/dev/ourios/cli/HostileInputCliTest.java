package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.core.TenantCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input through real CLI processes: tenant ids that look like paths or encodings round-trip through
 * generate, compact, query and files without leaving the store root; and bad objects planted in some partitions give
 * exit 1 with one {@code ourios:} line per bad partition naming the object, while the rest compacts and nothing is
 * deleted. (A NUL cannot travel in a command-line argument; TenantIsolationPropertyTest covers it in-process.)
 */
class HostileInputCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> TENANTS = List.of("a/b", "..", "%2F", "\uD83D\uDE00 ops");

    @TempDir
    Path dir;

    @Test
    void hostile_tenant_ids_round_trip_through_generate_compact_query_and_files() throws Exception {
        String store = dir.resolve("s").toString();
        List<String> gen = new java.util.ArrayList<>(List.of("generate", "--store", store, "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "3", "--rows-per-file", "40"));
        for (String t : TENANTS) {
            gen.addAll(List.of("--tenant", t));
        }
        var g = CliProcess.run(dir, gen.toArray(String[]::new));
        assertEquals(0, g.exit(), g.err());
        var c = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup", "--json");
        assertEquals(0, c.exit(), c.err());
        assertEquals(TENANTS.size(), JSON.readTree(c.outLines().get(c.outLines().size() - 1)).get("summary")
                .get("committed").asInt(), c.out());
        Path data = dir.resolve("s").resolve("data").toRealPath();
        for (String t : TENANTS) {
            var q = CliProcess.run(dir, "query", "--store", store, "--tenant", t, "--json");
            assertEquals(0, q.exit(), q.err());
            assertEquals(120, q.outLines().size(), t);
            for (String line : q.outLines()) {
                assertEquals(t, JSON.readTree(line).get("tenant_id").asText());
            }
            var f = CliProcess.run(dir, "files", "--store", store, "--tenant", t);
            assertEquals(0, f.exit(), f.err());
            assertEquals(1, f.outLines().size(), f.out());
            Path live = Path.of(f.outLines().get(0)).toRealPath();
            assertTrue(live.startsWith(data.resolve("tenant_id=" + TenantCodec.encode(t))), live.toString());
        }
        try (Stream<Path> s = Files.list(data)) {
            List<String> dirs = s.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(TENANTS.stream().map(t -> "tenant_id=" + TenantCodec.encode(t)).sorted().toList(), dirs);
        }
    }

    @Test
    void bad_objects_fail_their_partitions_with_one_line_each_exit_1_and_nothing_deleted() throws Exception {
        String store = dir.resolve("s").toString();
        assertEquals(0, CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "4", "--files-per-hour", "3", "--rows-per-file", "40").exit());
        Path day = dir.resolve("s/data/tenant_id=acme/year=2026/month=11/day=01");
        Files.write(day.resolve("hour=10/01a22900-0000-7000-8000-00000000000a.parquet"), new byte[0]);
        Files.write(day.resolve("hour=11/01a22900-0000-7000-8000-00000000000b.parquet"),
                "PAR1 this is not parquet at all PAR1".getBytes());
        Files.writeString(day.resolve("hour=12/manifest.00000000000000000001.json"),
                "{\"format\":1,\"generation\":1,\"files\":[\"../../x.parquet\"]}");
        Map<String, Long> before = files(dir.resolve("s"));

        var r = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup");
        assertEquals(1, r.exit(), r.out() + r.err());
        List<String> errors = r.errLines().stream().filter(l -> l.startsWith("ourios: ")).toList();
        assertEquals(3, errors.size(), r.err());
        assertTrue(oneNaming(errors, "hour=10").contains("00000000000a.parquet"), r.err());
        assertTrue(oneNaming(errors, "hour=11").contains("00000000000b.parquet"), r.err());
        String m = oneNaming(errors, "hour=12");
        assertTrue(m.contains("manifest.00000000000000000001.json") && m.contains("not a single path component"), m);
        assertTrue(r.out().contains("sweep: 1 committed"), r.out());

        var gc = CliProcess.run(dir, "gc", "--store", store, "--grace", "0s");
        assertEquals(1, gc.exit(), "gc reports the partition it had to skip: " + gc.err());
        Map<String, Long> after = files(dir.resolve("s"));
        before.forEach((k, v) -> {
            if (!k.contains("hour=13")) {
                assertEquals(v, after.get(k), "nothing of the bad partitions deleted: " + k);
            }
        });
    }

    /** The one error line naming {@code hour}: a second line about the same partition would fail here. */
    private static String oneNaming(List<String> lines, String hour) {
        List<String> named = lines.stream().filter(l -> l.contains("/" + hour)).toList();
        assertEquals(1, named.size(), "one line for " + hour + ": " + named);
        return named.get(0);
    }

    private static Map<String, Long> files(Path root) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                out.put(root.relativize(f).toString(), Files.size(f));
            }
        }
        return out;
    }
}
