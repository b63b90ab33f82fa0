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
 * {@code [FROM, TO)} over the files {@code FILE_LIST} names, one path a line (the output of {@code ourios files});
 * with {@code --where SQL}, the rows {@code SQL} holds for (a search's twin, {@link SearchCases#wordWhere}); with
 * {@code --per-minute SQL}, those rows counted per minute and service, every group read (what {@code ourios stats}
 * answers). Prints the count.
 */
public final class DuckDbCountMain {
    private DuckDbCountMain() {
    }

    public static void main(String[] args) throws Exception {
        boolean mode = args.length == 4 && (args[2].equals("--where") || args[2].equals("--per-minute"));
        if (args.length != 5 && !mode) {
            System.err.println("usage: DuckDbCountMain THREADS FILE_LIST (SERVICE FROM TO | --where SQL | "
                    + "--per-minute SQL)");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        List<Path> files = Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank()).map(Path::of).toList();
        try (Connection c = DuckDbContender.connect(); Statement s = c.createStatement()) {
            s.execute("SET threads=" + threads);
            if (args[2].equals("--per-minute")) {
                // Counts per minute and service, every result row read, the counts summed: the rows counted.
                long total = 0;
                try (ResultSet rs = s.executeQuery(perMinuteSql(files, args[3]))) {
                    while (rs.next()) {
                        total += rs.getLong(3);
                    }
                }
                System.out.println(total);
                return;
            }
            String sql = args.length == 4 ? "SELECT count(*) FROM read_parquet(" + DuckDbContender.list(files)
                    + ") WHERE " + args[3] : countSql(files, args[2], Instant.parse(args[3]), Instant.parse(args[4]));
            try (ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                System.out.println(rs.getLong(1));
            }
        }
    }

    /** The rows {@code where} holds for, counted per minute and service, as {@code ourios stats --by service}. */
    static String perMinuteSql(List<Path> files, String where) {
        return "SELECT time_bucket(INTERVAL '1 minute', effective_time_unix_nano::TIMESTAMPTZ) AS minute, "
                + "\"resource.service.name\" AS service, count(*) AS n FROM read_parquet(" + DuckDbContender.list(files)
                + ") WHERE " + where + " GROUP BY minute, service";
    }

    /** The rows of {@code service} with an effective time in {@code [from, to)}, as {@code ourios query} counts them. */
    static String countSql(List<Path> files, String service, Instant from, Instant to) {
        return "SELECT count(*) FROM read_parquet(" + DuckDbContender.list(files) + ") WHERE \"resource.service.name\" = '"
                + service.replace("'", "''") + "' AND effective_time_unix_nano >= '" + from
                + "'::TIMESTAMPTZ_NS AND effective_time_unix_nano < '" + to + "'::TIMESTAMPTZ_NS";
    }
}
