package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that reads a store refuses one that is missing, unreadable or a regular file with exit 2 and one
 * line naming the store, instead of reporting an empty store ("verified 0 partitions: 0 mismatched"). The writers
 * ({@code ingest}, {@code generate}) create a missing directory but refuse a regular file. An unknown tenant is a
 * stderr line and exit 0.
 */
class StoreRefusalCliTest {
    /** The reading commands with the flags each needs beside --store. */
    private static final List<List<String>> READERS = List.of(
            List.of("query", "--tenant", "acme"),
            List.of("query", "--tenant", "acme", "--count"),
            List.of("files", "--tenant", "acme"),
            List.of("verify"),
            List.of("gc"),
            List.of("gc", "--dry-run"),
            List.of("compact", "--once"),
            List.of("compact", "--dry-run"));

    @TempDir
    Path dir;

    private static String[] with(List<String> command, String store) {
        List<String> args = new ArrayList<>(command);
        args.add("--store");
        args.add(store);
        return args.toArray(String[]::new);
    }

    private static void assertRefused(InProcessCli.Result r, String store, String why, List<String> command) {
        assertEquals(2, r.exit(), command + ": " + r.err());
        assertEquals(1, r.errLines().size(), command + ": " + r.err());
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("ourios: --store " + store + ": " + why), command + ": " + line);
    }

    @Test
    void readers_refuse_a_missing_directory() {
        String missing = dir.resolve("not-mounted").toString();
        for (List<String> command : READERS) {
            assertRefused(InProcessCli.run(with(command, missing)), missing, "no such directory", command);
            assertRefused(InProcessCli.run(with(command, "file://" + missing)), "file://" + missing,
                    "no such directory", command);
        }
        assertFalse(Files.exists(dir.resolve("not-mounted")), "nothing was created");
    }

    @Test
    void readers_refuse_a_regular_file() throws Exception {
        Path file = Files.writeString(dir.resolve("store.txt"), "not a store");
        for (List<String> command : READERS) {
            assertRefused(InProcessCli.run(with(command, file.toString())), file.toString(), "not a directory",
                    command);
        }
        assertEquals("not a store", Files.readString(file), "the file is untouched");
    }

    @Test
    void readers_refuse_an_unreadable_directory() throws Exception {
        assumeFalse("root".equals(System.getProperty("user.name")), "root reads every directory");
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("-wx------"));
        try {
            for (List<String> command : READERS) {
                assertRefused(InProcessCli.run(with(command, locked.toString())), locked.toString(),
                        "the store directory is not readable", command);
            }
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void writers_create_a_missing_directory_and_refuse_a_regular_file() throws Exception {
        Path fresh = dir.resolve("fresh/store");
        InProcessCli.Result gen = InProcessCli.run("generate", "--store", fresh.toString(), "--tenant", "acme",
                "--hours", "1", "--files-per-hour", "1", "--rows-per-file", "10");
        assertEquals(0, gen.exit(), gen.err());
        assertTrue(Files.isDirectory(fresh.resolve("data")), "generate created the store");

        Path input = Files.writeString(dir.resolve("in.jsonl"), OtlpLinesFile.line(new java.util.Random(1), 2) + "\n");
        Path fresh2 = dir.resolve("fresh2");
        InProcessCli.Result ingest = InProcessCli.run("ingest", "--store", fresh2.toString(), "--tenant", "acme",
                input.toString());
        assertEquals(0, ingest.exit(), ingest.err());
        assertTrue(Files.isDirectory(fresh2.resolve("data")), "ingest created the store");

        Path file = Files.writeString(dir.resolve("store.txt"), "not a store");
        assertRefused(InProcessCli.run("generate", "--store", file.toString(), "--tenant", "acme"), file.toString(),
                "not a directory", List.of("generate"));
        assertRefused(InProcessCli.run("ingest", "--store", file.toString(), "--tenant", "acme", input.toString()),
                file.toString(), "not a directory", List.of("ingest"));
        assertRefused(InProcessCli.run("demo", "--store", file.toString()), file.toString(), "not a directory",
                List.of("demo"));
        assertEquals("not a store", Files.readString(file));
    }

    @Test
    void serve_refuses_a_store_under_a_missing_parent_at_start() throws Exception {
        Path parent = dir.resolve("not-mounted");
        String missing = parent.resolve("logs").toString();
        CliProcess.Result r = CliProcess.run(dir, Map.of("OURIOS_INGEST_WAL_DIR", dir.resolve("wal").toString()),
                "serve", "--store", missing, "--http", "127.0.0.1:0", "--otlp-http", "127.0.0.1:0");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.errLines().stream().anyMatch(l -> l.contains("store.uri " + missing
                + ": cannot create the store: its parent directory " + parent + " does not exist")), r.err());
        assertFalse(Files.exists(parent));
    }

    @Test
    void an_unknown_tenant_is_one_stderr_line_and_exit_0() throws Exception {
        String store = dir.resolve("s").toString();
        assertEquals(0, CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--hours", "1",
                "--files-per-hour", "1", "--rows-per-file", "10").exit());
        for (List<String> command : List.of(List.of("query", "--tenant", "acme-typo"),
                List.of("files", "--tenant", "acme-typo"), List.of("verify", "--tenant", "acme-typo"))) {
            CliProcess.Result r = CliProcess.run(dir, with(command, store));
            assertEquals(0, r.exit(), command + ": " + r.err());
            assertEquals(List.of("ourios: store " + store + " has no tenant 'acme-typo'"), r.errLines(), command.toString());
        }
        CliProcess.Result known = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
        assertEquals(0, known.exit(), known.err());
        assertEquals(List.of(), known.errLines());
        assertEquals("10", known.out().strip());
    }
}
