package dev.ourios.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs contenders side by side on one fixture: one warm-up each, then {@code runs} rounds in which every contender
 * runs once, the starting contender rotating each round (A B C, B C A, …) so drift in the machine's load or the
 * page cache is shared out. {@code System.gc()} runs before every timed run so no run pays for its predecessor's
 * garbage. Every contender must produce the same number of rows.
 */
public final class Contest {
    private final List<Contender> contenders;
    private final int warmups;
    private final int runs;
    private final Consumer<String> log;

    public Contest(List<Contender> contenders, int warmups, int runs, Consumer<String> log) {
        this.contenders = List.copyOf(contenders);
        this.warmups = warmups;
        this.runs = runs;
        this.log = log;
    }

    /**
     * Per contender (in the given order): its samples and its last outcome. {@code processCpuSeconds} is the CPU
     * time of the whole JVM over each run (every thread: helpers, GC, JIT, and DuckDB's native threads, which run
     * in this process), so work moved to another core still shows. {@code peakRssMiB}: the largest of the runs'
     * process peak resident sets ({@link PeakRss}; -1 where unknown). {@code minorFaults}: the process's minor page
     * faults over each run ({@link PageFaults}; -1 where unknown).
     */
    public record Result(Contender contender, Samples seconds, Samples cpuSeconds, Samples processCpuSeconds,
            Outcome last, long peakRssMiB, Samples minorFaults) {
    }

    private static long processCpuNanos() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    public Map<String, Result> run(Fixture f) throws Exception {
        for (int w = 0; w < warmups; w++) {
            for (Contender c : contenders) {
                Outcome o = c.run(f);
                log.accept(String.format("  warm-up %s: %.3f s", c.name(), o.seconds()));
            }
        }
        Map<String, List<Double>> times = new LinkedHashMap<>();
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        Map<String, List<Double>> processCpu = new LinkedHashMap<>();
        Map<String, List<Double>> faults = new LinkedHashMap<>();
        Map<String, Outcome> last = new LinkedHashMap<>();
        Map<String, Long> peakRss = new LinkedHashMap<>();
        contenders.forEach(c -> times.put(c.name(), new ArrayList<>()));
        contenders.forEach(c -> cpu.put(c.name(), new ArrayList<>()));
        contenders.forEach(c -> processCpu.put(c.name(), new ArrayList<>()));
        contenders.forEach(c -> faults.put(c.name(), new ArrayList<>()));
        for (int round = 0; round < runs; round++) {
            for (int i = 0; i < contenders.size(); i++) {
                Contender c = contenders.get((round + i) % contenders.size());
                System.gc();
                boolean rss = PeakRss.reset();
                long p0 = processCpuNanos();
                long f0 = PageFaults.minor();
                Outcome o = c.run(f);
                double pcpu = (processCpuNanos() - p0) / 1e9;
                long f1 = PageFaults.minor();
                faults.get(c.name()).add(f0 < 0 || f1 < 0 ? -1.0 : (double) (f1 - f0));
                long runRss = rss ? PeakRss.mib() : -1;
                peakRss.merge(c.name(), runRss, Math::max);
                if (o.rowsOut() != f.rows()) {
                    throw new IllegalStateException(c.name() + " wrote " + o.rowsOut() + " rows, input has "
                            + f.rows());
                }
                times.get(c.name()).add(o.seconds());
                cpu.get(c.name()).add(o.cpuSeconds());
                processCpu.get(c.name()).add(pcpu);
                last.put(c.name(), o);
                log.accept(String.format("  run %d %s: %.3f s (%.1f MiB/s, cpu %.3f s, process cpu %.3f s, "
                        + "peak RSS %d MiB, %.2f M page faults)", round + 1, c.name(), o.seconds(), f.mib() / o.seconds(),
                        o.cpuSeconds(), pcpu, runRss, (f1 - f0) / 1e6));
            }
        }
        Map<String, Result> out = new LinkedHashMap<>();
        for (Contender c : contenders) {
            out.put(c.name(), new Result(c, new Samples(times.get(c.name())), new Samples(cpu.get(c.name())),
                    new Samples(processCpu.get(c.name())), last.get(c.name()), peakRss.getOrDefault(c.name(), -1L),
                    new Samples(faults.get(c.name()))));
        }
        return out;
    }
}
