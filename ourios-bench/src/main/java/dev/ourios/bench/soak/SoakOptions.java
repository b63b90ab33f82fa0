package dev.ourios.bench.soak;

import dev.ourios.compaction.plan.CompactionOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Options of {@code ourios-bench soak}: sustained ingest while the compaction daemon runs.
 *
 * @param tenants        tenants written to concurrently
 * @param rate           target lines per wall-clock second, summed over all tenants
 * @param hours          hours of partitions the writer fills
 * @param hourSeconds    wall seconds one partition hour lasts (3600 = real time; less = simulated clock)
 * @param realTime       plan clock = system clock and hour 0 = the current hour (else a simulated clock)
 * @param filesPerHour   on-time ingest files per tenant-hour (the "several small files")
 * @param lateFiles      late files per tenant-hour, landed during the next hour after the grace period
 * @param writers        writer threads
 * @param grace          the compactor's sealing grace (simulated time)
 * @param gcGrace        the GC grace (wall time; GC compares it with file modification times)
 * @param sweepEvery     wall time between daemon sweeps
 * @param sampleEvery    wall time between samples (store survey and the two queries)
 * @param drainTimeout   how long (wall) the daemon may take to clear the backlog once ingest stops
 * @param store          the store directory (emptied first)
 * @param outDir         where the Markdown, JSON and SVG reports go
 * @param seed           generator seed
 * @param maxTailRatio   the compactor's {@code --max-tail-ratio} (0 merges every late file into its hour at once)
 */
public record SoakOptions(int tenants, long rate, int hours, double hourSeconds, boolean realTime, int filesPerHour,
        int lateFiles, int writers, Duration grace, Duration gcGrace, Duration sweepEvery, Duration sampleEvery,
        Duration drainTimeout, Path store, Path outDir, long seed, double maxTailRatio) {

    static final String USAGE = "usage: ourios-bench soak --tenants N --rate LINES_PER_S --hours H "
            + "[--simulated [--hour-seconds S] | --real-time] [--files-per-hour F] [--late-files K] [--writers W] "
            + "[--grace DUR] [--gc-grace DUR] [--sweep-every DUR] [--sample-every DUR] [--drain-timeout DUR] "
            + "[--max-tail-ratio R] [--store DIR] [--out DIR] [--seed S]   (DUR: 500ms, 30s, 15m, 1h)";

    public SoakOptions {
        require(tenants >= 1, "--tenants must be >= 1");
        require(rate >= 1, "--rate must be >= 1");
        require(hours >= 1, "--hours must be >= 1");
        require(hourSeconds > 0 && hourSeconds <= 3600, "--hour-seconds must be in (0, 3600]");
        require(!realTime || hourSeconds == 3600, "--real-time runs hours of 3600 s");
        require(filesPerHour >= 2, "--files-per-hour must be >= 2 (one file is not a small-file problem)");
        require(lateFiles >= 0, "--late-files must be >= 0");
        require(writers >= 1, "--writers must be >= 1");
        require(maxTailRatio >= 0 && maxTailRatio <= 1, "--max-tail-ratio must be between 0 and 1");
        require(grace.compareTo(Duration.ofMinutes(45)) <= 0, "--grace must be at most 45m (late files land after it)");
        // Fields are assigned after this block, so the accessor cannot be used here.
        require(rowsPerFile(rate, hourSeconds, tenants, filesPerHour + lateFiles) >= 1,
                "--rate too low for that many files: fewer than one row per file");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Simulated seconds per wall second. */
    public double speed() {
        return 3600.0 / hourSeconds;
    }

    /**
     * Rows per ingest file, so that a steady-state hour (every tenant's on-time files plus the previous hour's late
     * files) carries {@code rate x hourSeconds} rows.
     */
    public int rowsPerFile() {
        return rowsPerFile(rate, hourSeconds, tenants, filesPerHour + lateFiles);
    }

    private static int rowsPerFile(long rate, double hourSeconds, int tenants, int filesPerTenantHour) {
        return (int) Math.round(rate * hourSeconds / ((double) tenants * filesPerTenantHour));
    }

    /** The launcher command line that reproduces the run. */
    public String command() {
        StringBuilder sb = new StringBuilder("./ourios-bench.sh soak");
        sb.append(" --tenants ").append(tenants).append(" --rate ").append(rate).append(" --hours ").append(hours);
        sb.append(realTime ? " --real-time" : " --simulated --hour-seconds " + fmt(hourSeconds));
        sb.append(" --files-per-hour ").append(filesPerHour).append(" --late-files ").append(lateFiles);
        sb.append(" --writers ").append(writers).append(" --grace ").append(dur(grace));
        sb.append(" --gc-grace ").append(dur(gcGrace)).append(" --sweep-every ").append(dur(sweepEvery));
        sb.append(" --sample-every ").append(dur(sampleEvery)).append(" --max-tail-ratio ").append(fmt(maxTailRatio));
        sb.append(" --seed ").append(seed);
        return sb.toString();
    }

    public static SoakOptions parse(List<String> argv) {
        Integer tenants = null;
        Long rate = null;
        Integer hours = null;
        double hourSeconds = 30;
        boolean realTime = false;
        int files = 12;
        int late = 2;
        int writers = 1;
        Duration grace = Duration.ofMinutes(15);
        Duration gcGrace = Duration.ofMinutes(10);
        Duration sweep = null;
        Duration sample = null;
        Duration drain = Duration.ofMinutes(10);
        Path store = Path.of(System.getProperty("java.io.tmpdir"), "ourios-soak");
        Path out = Path.of("docs", "soak");
        long seed = 9;
        double maxTailRatio = CompactionOptions.DEFAULT_MAX_TAIL_RATIO;
        List<String> a = new ArrayList<>(argv);
        for (int i = 0; i < a.size(); i++) {
            String flag = a.get(i);
            switch (flag) {
                case "--tenants" -> tenants = Integer.parseInt(value(a, ++i, flag));
                case "--rate" -> rate = Long.parseLong(value(a, ++i, flag));
                case "--hours" -> hours = Integer.parseInt(value(a, ++i, flag));
                case "--hour-seconds" -> hourSeconds = Double.parseDouble(value(a, ++i, flag));
                case "--simulated" -> realTime = false;
                case "--real-time" -> realTime = true;
                case "--files-per-hour" -> files = Integer.parseInt(value(a, ++i, flag));
                case "--late-files" -> late = Integer.parseInt(value(a, ++i, flag));
                case "--writers" -> writers = Integer.parseInt(value(a, ++i, flag));
                case "--grace" -> grace = duration(value(a, ++i, flag));
                case "--gc-grace" -> gcGrace = duration(value(a, ++i, flag));
                case "--sweep-every" -> sweep = duration(value(a, ++i, flag));
                case "--sample-every" -> sample = duration(value(a, ++i, flag));
                case "--drain-timeout" -> drain = duration(value(a, ++i, flag));
                case "--store" -> store = Path.of(value(a, ++i, flag));
                case "--out" -> out = Path.of(value(a, ++i, flag));
                case "--seed" -> seed = Long.parseLong(value(a, ++i, flag));
                case "--max-tail-ratio" -> maxTailRatio = Double.parseDouble(value(a, ++i, flag));
                default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + USAGE);
            }
        }
        if (tenants == null || rate == null || hours == null) {
            throw new IllegalArgumentException("--tenants, --rate and --hours are required\n" + USAGE);
        }
        if (realTime) {
            hourSeconds = 3600;
        }
        // Real time sweeps like the daemon's default cadence; a simulated hour needs several sweeps per hour.
        Duration sweepEvery = sweep != null ? sweep : realTime ? Duration.ofMinutes(1)
                : Duration.ofMillis(Math.max(100, (long) (hourSeconds * 1000 / 30)));
        Duration sampleEvery = sample != null ? sample : realTime ? Duration.ofMinutes(1)
                : Duration.ofMillis(Math.max(250, (long) (hourSeconds * 1000 / 4)));
        return new SoakOptions(tenants, rate, hours, hourSeconds, realTime, files, late, writers, grace, gcGrace,
                sweepEvery, sampleEvery, drain, store, out, seed, maxTailRatio);
    }

    private static String value(List<String> a, int i, String flag) {
        if (i >= a.size()) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return a.get(i);
    }

    /** {@code 500ms}, {@code 30s}, {@code 15m}, {@code 2h}. */
    static Duration duration(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> throw new IllegalArgumentException("bad duration '" + s + "' (use 500ms, 30s, 15m, 1h)");
            };
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("bad duration '" + s + "' (use 500ms, 30s, 15m, 1h)");
        }
    }

    private static String dur(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
