package dev.ourios.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@link Contest} for commands that each run as a fresh process: untimed warm-up rounds (the page cache), then
 * {@code runs} rounds in which every contender runs once, the starting contender rotating each round. Contenders
 * that count rows (rows >= 0) must report the same number in every round.
 */
final class ProcessContest {
    /** One contender: its name, the command as a user types it, and one run (prepare, time, check). */
    record Entry(String name, String shown, Step step) {
    }

    /** One timed run of a contender; {@code name} names its log files. */
    @FunctionalInterface
    interface Step {
        Timed run(String name) throws Exception;
    }

    /** A timed run and the rows it reported (-1 for a command that reports none). */
    record Timed(FreshProcess.Run run, long rows) {
    }

    private final List<Entry> entries;
    private final int warmups;
    private final int runs;
    private final Consumer<String> log;

    ProcessContest(List<Entry> entries, int warmups, int runs, Consumer<String> log) {
        this.entries = List.copyOf(entries);
        this.warmups = warmups;
        this.runs = runs;
        this.log = log;
    }

    /** Per contender, in the given order, its timed runs. */
    Map<String, List<Timed>> run() throws Exception {
        Map<String, List<Timed>> out = new LinkedHashMap<>();
        entries.forEach(e -> out.put(e.name(), new ArrayList<>()));
        for (int round = -warmups; round < runs; round++) {
            boolean timed = round >= 0;
            Long agreed = null;
            String agreedBy = null;
            for (int i = 0; i < entries.size(); i++) {
                Entry e = entries.get(Math.floorMod(round + i, entries.size()));
                String label = (timed ? "run " + (round + 1) : "warm-up " + (round + warmups + 1));
                Timed t = e.step().run(e.name() + "-" + (timed ? "run" + (round + 1) : "warmup" + (round + warmups + 1)));
                log.accept(String.format("  %s %s: %.3f s (rows %d, peak RSS %d MiB, cpu %.2f s)", label, e.name(),
                        t.run().seconds(), t.rows(), t.run().peakRssMiB(), t.run().cpuSeconds()));
                if (t.rows() >= 0) {
                    if (agreed != null && agreed != t.rows()) {
                        throw new IllegalStateException(label + ": " + e.name() + " reported " + t.rows()
                                + " rows, " + agreedBy + " " + agreed);
                    }
                    agreed = t.rows();
                    agreedBy = e.name();
                }
                if (timed) {
                    out.get(e.name()).add(t);
                }
            }
        }
        return out;
    }
}
