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
 * @param classes        tenant classes ({@code --classes}): {@code tenants} tenants of each, at the class's rate;
 *                       empty: {@code tenants} tenants sharing {@code rate}
 * @param rollup         the compactor rolls small sealed hours into day partitions ({@code --rollup})
 * @param smallFileBytes the compactor's {@code small_file_bytes}: the small-file bound of the rollup and of H4
 * @param maxFileBytes   the compactor's {@code max_file_bytes}: the band's upper bound
 */
public record SoakOptions(int tenants, long rate, int hours, double hourSeconds, boolean realTime, int filesPerHour,
        int lateFiles, int writers, Duration grace, Duration gcGrace, Duration sweepEvery, Duration sampleEvery,
        Duration drainTimeout, Path store, Path outDir, long seed, double maxTailRatio, List<TenantClass> classes,
        boolean rollup, long smallFileBytes, long maxFileBytes) {

    static final String USAGE = "usage: ourios-bench soak --tenants N --rate LINES_PER_S --hours H "
            + "[--simulated [--hour-seconds S] | --real-time] [--files-per-hour F] [--late-files K] [--writers W] "
            + "[--grace DUR] [--gc-grace DUR] [--sweep-every DUR] [--sample-every DUR] [--drain-timeout DUR] "
            + "[--max-tail-ratio R] [--store DIR] [--out DIR] [--seed S] [--classes NAME=LINES_PER_S,...] "
            + "[--rollup] [--small-file-bytes N] [--max-file-bytes N]   (DUR: 500ms, 30s, 15m, 1h)";

    /** Without tenant classes or rollup, the compactor's size bounds at their defaults. */
    public SoakOptions(int tenants, long rate, int hours, double hourSeconds, boolean realTime, int filesPerHour,
            int lateFiles, int writers, Duration grace, Duration gcGrace, Duration sweepEvery, Duration sampleEvery,
            Duration drainTimeout, Path store, Path outDir, long seed, double maxTailRatio) {
        this(tenants, rate, hours, hourSeconds, realTime, filesPerHour, lateFiles, writers, grace, gcGrace, sweepEvery,
                sampleEvery, drainTimeout, store, outDir, seed, maxTailRatio, List.of(), false,
                CompactionOptions.DEFAULT_SMALL_FILE_BYTES, CompactionOptions.DEFAULT_MAX_FILE_BYTES);
    }

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
        classes = List.copyOf(classes);
        require(smallFileBytes >= 1, "--small-file-bytes must be >= 1");
        require(maxFileBytes >= smallFileBytes, "--max-file-bytes must be >= --small-file-bytes");
        for (TenantClass c : classes) {
            require(rowsPerFile(c.linesPerSecond(), hourSeconds, 1, filesPerHour + lateFiles) >= 1,
                    "--classes: class " + c.name() + " sends fewer than one row per file");
        }
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

    static int rowsPerFile(long rate, double hourSeconds, int tenants, int filesPerTenantHour) {
        return (int) Math.round(rate * hourSeconds / ((double) tenants * filesPerTenantHour));
    }

    /** The launcher command line that reproduces the run. */
    public String command() {
        StringBuilder sb = new StringBuilder("./ourios-bench.sh soak");
        sb.append(" --tenants ").append(tenants);
        if (classes.isEmpty()) {
            sb.append(" --rate ").append(rate); // with classes, each class names its rate
        }
        sb.append(" --hours ").append(hours);
        sb.append(realTime ? " --real-time" : " --simulated --hour-seconds " + fmt(hourSeconds));
        sb.append(" --files-per-hour ").append(filesPerHour).append(" --late-files ").append(lateFiles);
        sb.append(" --writers ").append(writers).append(" --grace ").append(dur(grace));
        sb.append(" --gc-grace ").append(dur(gcGrace)).append(" --sweep-every ").append(dur(sweepEvery));
        sb.append(" --sample-every ").append(dur(sampleEvery)).append(" --max-tail-ratio ").append(fmt(maxTailRatio));
        sb.append(" --seed ").append(seed);
        if (!classes.isEmpty()) {
            sb.append(" --classes ").append(TenantClass.format(classes));
        }
        if (rollup) {
            sb.append(" --rollup");
        }
        if (smallFileBytes != CompactionOptions.DEFAULT_SMALL_FILE_BYTES) {
            sb.append(" --small-file-bytes ").append(smallFileBytes);
        }
        if (maxFileBytes != CompactionOptions.DEFAULT_MAX_FILE_BYTES) {
            sb.append(" --max-file-bytes ").append(maxFileBytes);
        }
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
        List<TenantClass> classes = List.of();
        boolean rollup = false;
        long smallFileBytes = CompactionOptions.DEFAULT_SMALL_FILE_BYTES;
        long maxFileBytes = CompactionOptions.DEFAULT_MAX_FILE_BYTES;
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
                case "--classes" -> classes = TenantClass.parse(value(a, ++i, flag));
                case "--rollup" -> rollup = true;
                case "--small-file-bytes" -> smallFileBytes = Long.parseLong(value(a, ++i, flag));
                case "--max-file-bytes" -> maxFileBytes = Long.parseLong(value(a, ++i, flag));
                default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + USAGE);
            }
        }
        if (!classes.isEmpty()) {
            // Each class's tenants send its rate: the total is what the classes add up to.
            if (rate != null) {
                throw new IllegalArgumentException("--rate and --classes exclude each other (each class names its "
                        + "rate)\n" + USAGE);
            }
            rate = (tenants == null ? 1 : tenants) * classes.stream().mapToLong(TenantClass::linesPerSecond).sum();
        }
        if (tenants == null || rate == null || hours == null) {
            throw new IllegalArgumentException("--tenants, --rate (or --classes) and --hours are required\n" + USAGE);
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
                sweepEvery, sampleEvery, drain, store, out, seed, maxTailRatio, classes, rollup, smallFileBytes,
                maxFileBytes);
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
