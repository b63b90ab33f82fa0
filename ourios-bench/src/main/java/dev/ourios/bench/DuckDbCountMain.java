package dev.ourios.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;

/**
 * {@code java -cp <bench jar> dev.ourios.bench.DuckDbCountMain THREADS FILE_LIST SERVICE FROM TO}: what a user runs
 * instead of {@code ourios query --count}, in a JVM of its own: DuckDB counts the rows of one service in
 * {@code [FROM, TO)} over the files {@code FILE_LIST} names, one path a line (the output of {@code ourios files}).
 * Prints the count.
 */
public final class DuckDbCountMain {
    private DuckDbCountMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: DuckDbCountMain THREADS FILE_LIST SERVICE FROM TO");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        List<Path> files = Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank()).map(Path::of).toList();
        try (Connection c = DuckDbContender.connect(); Statement s = c.createStatement()) {
            s.execute("SET threads=" + threads);
            try (ResultSet rs = s.executeQuery(countSql(files, args[2], Instant.parse(args[3]),
                    Instant.parse(args[4])))) {
                rs.next();
                System.out.println(rs.getLong(1));
            }
        }
    }

    /** The rows of {@code service} with an effective time in {@code [from, to)}, as {@code ourios query} counts them. */
    static String countSql(List<Path> files, String service, Instant from, Instant to) {
        return "SELECT count(*) FROM read_parquet(" + DuckDbContender.list(files) + ") WHERE \"resource.service.name\" = '"
                + service.replace("'", "''") + "' AND effective_time_unix_nano >= '" + from
                + "'::TIMESTAMPTZ_NS AND effective_time_unix_nano < '" + to + "'::TIMESTAMPTZ_NS";
    }
}
