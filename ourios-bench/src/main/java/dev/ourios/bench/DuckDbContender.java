package dev.ourios.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * What a user would run instead: DuckDB's {@code COPY (… ORDER BY service NULLS FIRST, effective time) TO … (FORMAT
 * parquet, COMPRESSION zstd)} over the same input files, in this JVM, with {@code threads} worker threads. Extension
 * auto-install/auto-load are off so no run touches the network; DuckDB spills to {@code scratch} if it must. The
 * output's row count and row groups are read back after the timed statement.
 *
 * <p>By default DuckDB may use 80 % of the machine's memory, and sorts in memory what fits there (several GiB of
 * peak RSS for a partition of about a hundred MiB; see docs/benchmarks.md); with {@code memoryLimitMiB > 0} it is
 * held to that ({@code SET memory_limit}) and spills beyond it, as our compaction does beyond its sort budget: the
 * same-memory comparison.
 */
public final class DuckDbContender implements Contender {
    private final int threads;
    private final Path scratch;
    private final long memoryLimitMiB;

    public DuckDbContender(int threads, Path scratch) {
        this(threads, scratch, 0);
    }

    public DuckDbContender(int threads, Path scratch, long memoryLimitMiB) {
        this.threads = threads;
        this.scratch = scratch;
        this.memoryLimitMiB = memoryLimitMiB;
    }

    @Override
    public String name() {
        return "duckdb-" + threads + "t" + (memoryLimitMiB > 0 ? "-" + memoryLimitMiB + "mib" : "");
    }

    public static Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("autoinstall_known_extensions", "false");
        p.setProperty("autoload_known_extensions", "false");
        return DriverManager.getConnection("jdbc:duckdb:", p);
    }

    static String list(Fixture f) {
        return list(f.paths());
    }

    /** A DuckDB list literal of the paths, each quoted. */
    static String list(List<Path> paths) {
        return paths.stream().map(p -> "'" + p.toString().replace("'", "''") + "'")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** The connection settings every run of this contender makes: threads, spill directory, memory limit if any. */
    void configure(Statement s) throws SQLException {
        s.execute("SET threads=" + threads);
        s.execute("SET temp_directory='" + scratch.resolve("duckdb-tmp") + "'");
        if (memoryLimitMiB > 0) {
            s.execute("SET memory_limit='" + memoryLimitMiB + "MiB'");
        }
    }

    /** The compaction as DuckDB does it: every input row, in our sort order, into one ZSTD Parquet file. */
    static String copySql(List<Path> inputs, Path out) {
        return "COPY (SELECT * FROM read_parquet(" + list(inputs) + ") ORDER BY \"resource.service.name\" "
                + "NULLS FIRST, effective_time_unix_nano) TO '" + out.toString().replace("'", "''")
                + "' (FORMAT parquet, COMPRESSION zstd)";
    }

    @Override
    public Outcome run(Fixture f) throws Exception {
        Files.createDirectories(scratch);
        Path out = scratch.resolve("duckdb-out.parquet");
        Files.deleteIfExists(out);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            configure(s);
            String sql = copySql(f.paths(), out);
            long t0 = System.nanoTime();
            s.execute(sql);
            double secs = (System.nanoTime() - t0) / 1e9;
            long rows;
            int groups;
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM read_parquet('" + out + "')")) {
                rs.next();
                rows = rs.getLong(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + out
                    + "')")) {
                rs.next();
                groups = rs.getInt(1);
            }
            long bytes = Files.size(out);
            Files.delete(out);
            return new Outcome(secs, -1, rows, bytes, groups, 0);
        }
    }
}
