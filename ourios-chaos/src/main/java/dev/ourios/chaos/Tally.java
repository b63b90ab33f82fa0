package dev.ourios.chaos;

import dev.ourios.testkit.LandingLedger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** The run's counters, shared by the query loops and the main loop; the first few violations are kept verbatim. */
final class Tally {
    private static final int KEPT = 20;

    final AtomicLong queryCounts = new AtomicLong();
    final AtomicLong fullChecks = new AtomicLong();
    final AtomicLong rowsChecked = new AtomicLong();
    final AtomicLong torn = new AtomicLong();
    final AtomicLong lost = new AtomicLong();
    final AtomicLong duplicated = new AtomicLong();
    final AtomicLong unknown = new AtomicLong();
    final AtomicLong failedQueries = new AtomicLong();
    final AtomicLong lateFiles = new AtomicLong();
    final AtomicLong lateRows = new AtomicLong();
    private final Map<String, long[]> kills = new TreeMap<>();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

    void record(String what, LandingLedger.Verdict v) {
        rowsChecked.addAndGet(v.rows());
        torn.addAndGet(v.torn());
        lost.addAndGet(v.lost());
        duplicated.addAndGet(v.duplicated());
        unknown.addAndGet(v.unknown());
        if (!v.clean()) {
            violation(what + ": " + v);
        }
    }

    void violation(String line) {
        if (violations.size() < KEPT) {
            violations.add(line);
        }
    }

    /** One child of {@code kind}; {@code landed} when it died where intended (mid-work, or at its armed point). */
    synchronized void kill(String kind, boolean landed) {
        long[] c = kills.computeIfAbsent(kind, k -> new long[2]);
        c[0]++;
        c[1] += landed ? 1 : 0;
    }

    synchronized Map<String, long[]> kills() {
        Map<String, long[]> copy = new TreeMap<>();
        kills.forEach((k, v) -> copy.put(k, v.clone()));
        return copy;
    }

    List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }
}
