package dev.ourios.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -cp <bench jar> dev.ourios.bench.DuckDbCopyMain THREADS SCRATCH OUT INPUT...}: the compaction a user
 * would run instead of ours, in a JVM of its own (the cold-cli suite times the whole process): {@link
 * DuckDbContender}'s settings and COPY statement over the inputs into {@code OUT}. Prints the number of rows
 * DuckDB reports written; the caller reads the output back with its own reader.
 */
public final class DuckDbCopyMain {
    private DuckDbCopyMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: DuckDbCopyMain THREADS SCRATCH OUT INPUT...");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        Path scratch = Path.of(args[1]);
        Path out = Path.of(args[2]);
        List<Path> inputs = Arrays.stream(args, 3, args.length).map(Path::of).toList();
        Files.createDirectories(scratch);
        DuckDbContender duck = new DuckDbContender(threads, scratch);
        try (Connection c = DuckDbContender.connect(); Statement s = c.createStatement()) {
            duck.configure(s);
            System.out.println(rowsWritten(s, DuckDbContender.copySql(inputs, out)));
        }
    }

    /** Runs the COPY and returns its row count, whether the driver hands it back as an update count or a row. */
    private static long rowsWritten(Statement s, String copy) throws java.sql.SQLException {
        if (!s.execute(copy)) {
            return s.getUpdateCount();
        }
        try (ResultSet rs = s.getResultSet()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
