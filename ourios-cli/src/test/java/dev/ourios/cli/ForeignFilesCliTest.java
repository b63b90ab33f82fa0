package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.testkit.ForeignParquet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of another writer in a store, through real processes: an hour whose ingest files DuckDB rewrote in Snappy,
 * GZIP and LZ4_RAW is inspected (each row group's codec shown), queried, compacted (to ZSTD) and verified; beside
 * it, an hour holding a file with damaged pages fails compaction and verify in one line naming the file, and a
 * footer nested past the stack or naming a codec id no Parquet version defines fails inspect (exit 2) in one line
 * naming the file.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ForeignFilesCliTest {
    /** DuckDB writes the 16- and 8-byte ids as BLOB, which the reader contract refuses: they are left out. */
    private static final String SELECT = "* EXCLUDE (trace_id, span_id)";

    @TempDir
    Path dir;

    private Path hour(int h) {
        return dir.resolve("s/data/tenant_id=acme/year=2026/month=11/day=01/hour=" + h);
    }

    private static List<Path> parquetFiles(Path partition) throws Exception {
        try (Stream<Path> s = Files.list(partition)) {
            return s.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
        }
    }

    /** {@code file} rewritten in place by DuckDB with {@code codec}. */
    private void rewrite(Path file, String codec) throws Exception {
        Path tmp = dir.resolve("duckdb-" + codec + "-" + file.getFileName());
        ForeignParquet.rewrite(file, tmp, codec, SELECT);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static List<String> errorLines(CliProcess.Result r) {
        return r.errLines().stream().filter(l -> l.startsWith("ourios: ")).toList();
    }

    @Test
    void snappyGzipAndLz4RawFilesAreInspectedQueriedCompactedAndVerifiedAndDamagedOnesNamed() throws Exception {
        String store = dir.resolve("s").toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "3", "--rows-per-file", "100");
        assertEquals(0, gen.exit(), gen.err());
        List<Path> ten = parquetFiles(hour(10));
        List<String> codecs = List.of("snappy", "gzip", "lz4");
        for (int i = 0; i < ten.size(); i++) {
            rewrite(ten.get(i), codecs.get(i));
        }
        List<Path> eleven = parquetFiles(hour(11));
        rewrite(eleven.get(0), "snappy");
        Files.write(eleven.get(0), ForeignParquet.withDamagedPages(Files.readAllBytes(eleven.get(0))));
        String damaged = eleven.get(0).getFileName().toString();

        var inspect = CliProcess.run(dir, "inspect", hour(10).toString());
        assertEquals(0, inspect.exit(), inspect.err());
        for (String codec : List.of("SNAPPY", "GZIP", "LZ4_RAW")) {
            assertTrue(inspect.out().contains("codecs: " + codec), inspect.out());
        }
        var count = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--from",
                "2026-11-01T10:00:00Z", "--to", "2026-11-01T11:00:00Z", "--count");
        assertEquals(0, count.exit(), count.err());
        assertEquals("300", count.out().strip());

        var compact = CliProcess.run(dir, "compact", "--store", store, "--once");
        assertEquals(1, compact.exit(), compact.out() + compact.err());
        List<String> errors = errorLines(compact);
        assertEquals(1, errors.size(), compact.err());
        assertTrue(errors.get(0).contains(damaged), errors.get(0));
        assertTrue(Files.exists(hour(10).resolve("manifest.00000000000000000001.json")), "hour 10 committed: "
                + compact.out() + compact.err());
        assertTrue(!Files.exists(hour(11).resolve("manifest.00000000000000000001.json")), "hour 11 did not: "
                + compact.out() + compact.err() + parquetFiles(hour(11)));

        Path output = parquetFiles(hour(10)).stream().filter(p -> p.toString().endsWith(".compacted.parquet"))
                .findFirst().orElseThrow();
        var compacted = CliProcess.run(dir, "inspect", output.toString());
        assertEquals(0, compacted.exit(), compacted.err());
        assertTrue(compacted.out().contains("codecs: ZSTD"), compacted.out());
        var after = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--from",
                "2026-11-01T10:00:00Z", "--to", "2026-11-01T11:00:00Z", "--count");
        assertEquals("300", after.out().strip(), after.err());

        var verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(1, verify.exit(), verify.out() + verify.err());
        List<String> verifyErrors = errorLines(verify);
        assertEquals(1, verifyErrors.size(), verify.err());
        assertTrue(verifyErrors.get(0).contains(damaged), verifyErrors.get(0));
        String tenLine = verify.outLines().stream().filter(l -> l.contains("2026-11-01T10")).findFirst()
                .orElseThrow();
        assertTrue(tenLine.contains(" ok "), tenLine);

        Path deep = dir.resolve("deep.parquet");
        Files.write(deep, ForeignParquet.deeplyNested(200_000));
        var hostile = CliProcess.run(dir, "inspect", deep.toString());
        assertEquals(2, hostile.exit(), hostile.out() + hostile.err()); // not Parquet it can read: spec/cli.md
        List<String> inspectErrors = errorLines(hostile);
        assertEquals(1, inspectErrors.size(), hostile.err());
        assertTrue(inspectErrors.get(0).contains("deep.parquet") && inspectErrors.get(0).contains("nested"),
                inspectErrors.get(0));

        Path lz4 = ten.get(2); // LZ4_RAW (codec id 7), retired by the compaction and still on disk
        int chunks;
        try (var r = org.apache.parquet.hadoop.ParquetFileReader.open(new org.apache.parquet.io.LocalInputFile(lz4))) {
            chunks = r.getFooter().getBlocks().stream().mapToInt(b -> b.getColumns().size()).sum();
        }
        Path unknown = dir.resolve("unknown-codec.parquet");
        Files.write(unknown, ForeignParquet.withCodecId(Files.readAllBytes(lz4), 7, 60, chunks));
        var codec = CliProcess.run(dir, "inspect", unknown.toString());
        assertEquals(2, codec.exit(), codec.out() + codec.err());
        List<String> codecErrors = errorLines(codec);
        assertEquals(1, codecErrors.size(), codec.err());
        assertTrue(codecErrors.get(0).contains("unknown-codec.parquet")
                && codecErrors.get(0).contains("names a page codec no Parquet version defines"), codecErrors.get(0));
    }
}
