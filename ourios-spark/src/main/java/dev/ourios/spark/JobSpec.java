package dev.ourios.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the Spark child process runs, read from a tab-separated job file (one directive per line):
 *
 * <pre>
 * conf      KEY  VALUE              a Spark setting of the session (e.g. spark.hadoop.fs.s3a.endpoint for s3a:// paths)
 * rounds    WARMUPS  MEASURED        how often each read runs (default 0 1); timings of the measured rounds are printed
 * emit      rows|count               rows: one ROW line per matching row (its fingerprint); count: the count only
 * live      NAME  WHERE  PATH,PATH…  Spark's own Parquet reader over these files (the live set of `ourios files`)
 * view      NAME  WAREHOUSE  TABLE  WHERE   the Iceberg table TABLE of a Hadoop catalog at WAREHOUSE
 * </pre>
 *
 * @param settings  Spark settings applied when the session is built, in order
 * @param warmups  unmeasured rounds per read
 * @param measured measured rounds per read
 * @param rows     true to print every matching row's fingerprint
 * @param reads    the reads, in order
 */
record JobSpec(Map<String, String> settings, int warmups, int measured, boolean rows, List<Read> reads) {
    /** One read: a name, a Spark SQL filter, and where the rows come from. */
    sealed interface Read permits LiveRead, ViewRead {
        String name();

        String where();
    }

    /** Spark's Parquet reader over the given files. */
    record LiveRead(String name, String where, List<String> paths) implements Read {
    }

    /** The Iceberg view through Iceberg's Spark runtime. */
    record ViewRead(String name, String warehouse, String table, String where) implements Read {
    }

    static JobSpec parse(Path file) throws IOException {
        int warmups = 0;
        int measured = 1;
        boolean rows = false;
        Map<String, String> settings = new LinkedHashMap<>();
        List<Read> reads = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            int fields = switch (f[0]) {
                case "emit" -> 2;
                case "conf", "rounds" -> 3;
                case "live" -> 4;
                case "view" -> 5;
                default -> throw new IllegalArgumentException(file + ": line " + n + ": unknown directive '" + f[0]
                        + "'");
            };
            if (f.length != fields) {
                throw new IllegalArgumentException(file + ": line " + n + ": '" + f[0] + "' takes " + (fields - 1)
                        + " tab-separated fields, got " + (f.length - 1));
            }
            switch (f[0]) {
                case "conf" -> settings.put(f[1], f[2]);
                case "rounds" -> {
                    warmups = Integer.parseInt(f[1]);
                    measured = Integer.parseInt(f[2]);
                }
                case "emit" -> rows = f[1].equals("rows");
                case "live" -> reads.add(new LiveRead(f[1], f[2], Arrays.asList(f[3].split(","))));
                case "view" -> reads.add(new ViewRead(f[1], f[2], f[3], f[4]));
                default -> throw new IllegalStateException("unreachable: " + f[0]);
            }
        }
        return new JobSpec(Collections.unmodifiableMap(settings), warmups, measured, rows, List.copyOf(reads));
    }
}
