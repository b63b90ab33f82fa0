package dev.ourios.chaos;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every row the run wrote, by partition: the base rows generated at the start, then late files numbered 1, 2, ...
 * in landing order by one writer. {@code started} is bumped before a late file's write begins and {@code completed}
 * after it returned, so a read that sampled {@code completed} before it began and {@code started} after it ended
 * knows which files it must see whole, which it must not see, and that every other one is all-or-nothing.
 * Identities are unique across the run (a generated row that repeats one is dropped before landing), so a
 * multiset comparison is a set comparison plus a duplicate count.
 */
final class Ledger {
    record LateFile(int id, PartitionKey partition, Set<String> rows) {
    }

    private final Map<PartitionKey, Set<String>> base = new ConcurrentHashMap<>();
    private final Map<String, PartitionKey> owner = new ConcurrentHashMap<>();
    private final Map<String, Integer> fileOf = new ConcurrentHashMap<>();
    private final List<LateFile> files = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger completed = new AtomicInteger();

    /** Keeps the rows whose identity is new, in order, and claims them for {@code p}. */
    synchronized List<LogRecord> claim(PartitionKey p, Collection<LogRecord> rows) {
        Map<String, LogRecord> fresh = new LinkedHashMap<>();
        for (LogRecord r : rows) {
            String id = RowIdentity.of(r);
            if (!owner.containsKey(id)) {
                fresh.putIfAbsent(id, r);
            }
        }
        for (String id : fresh.keySet()) {
            owner.put(id, p);
        }
        return new ArrayList<>(fresh.values());
    }

    /** Records rows landed before the run's readers start. */
    void addBase(PartitionKey p, Collection<LogRecord> claimed) {
        Set<String> ids = base.computeIfAbsent(p, k -> ConcurrentHashMap.newKeySet());
        for (LogRecord r : claimed) {
            ids.add(RowIdentity.of(r));
        }
    }

    /** Before a late file's write begins: its number. */
    synchronized int beginLate(PartitionKey p, Collection<LogRecord> claimed) {
        int id = files.size() + 1;
        Set<String> ids = new HashSet<>();
        for (LogRecord r : claimed) {
            String rid = RowIdentity.of(r);
            ids.add(rid);
            fileOf.put(rid, id);
        }
        files.add(new LateFile(id, p, Set.copyOf(ids)));
        started.set(id);
        return id;
    }

    /** After the late file's write returned: its rows are acknowledged. */
    void completeLate(int id) {
        completed.set(id);
    }

    int completed() {
        return completed.get();
    }

    int started() {
        return started.get();
    }

    List<PartitionKey> partitions() {
        return base.keySet().stream().sorted().toList();
    }

    /** Rows acknowledged in {@code p} so far (base plus completed late files). */
    long expectedRows(PartitionKey p) {
        int done = completed();
        long n = base.getOrDefault(p, Set.of()).size();
        synchronized (files) {
            for (LateFile f : files) {
                if (f.id() <= done && f.partition().equals(p)) {
                    n += f.rows().size();
                }
            }
        }
        return n;
    }

    /**
     * Judges one read of {@code p} that returned {@code identities}, given {@code completedBefore} sampled before it
     * began and {@code startedAfter} sampled after it ended.
     */
    Verdict judge(PartitionKey p, List<String> identities, int completedBefore, int startedAfter) {
        Map<String, Integer> seen = new HashMap<>();
        long duplicated = 0;
        long unknown = 0;
        for (String id : identities) {
            if (seen.merge(id, 1, Integer::sum) > 1) {
                duplicated++;
            }
            if (!p.equals(owner.get(id))) {
                unknown++;
            }
        }
        long lost = 0;
        for (String id : base.getOrDefault(p, Set.of())) {
            if (!seen.containsKey(id)) {
                lost++;
            }
        }
        Map<Integer, Integer> present = new HashMap<>();
        for (String id : seen.keySet()) {
            Integer f = fileOf.get(id);
            if (f != null && p.equals(owner.get(id))) {
                present.merge(f, 1, Integer::sum);
            }
        }
        long torn = 0;
        List<LateFile> snapshot;
        synchronized (files) {
            snapshot = List.copyOf(files);
        }
        for (LateFile f : snapshot) {
            if (!f.partition().equals(p)) {
                continue;
            }
            int k = present.getOrDefault(f.id(), 0);
            if (k > 0 && k < f.rows().size()) {
                torn++;
            }
            if (f.id() <= completedBefore && k < f.rows().size()) {
                lost += f.rows().size() - k;
            }
            if (f.id() > startedAfter && k > 0) {
                unknown += k; // a file whose write had not even begun when the read ended
            }
        }
        return new Verdict(identities.size(), torn, lost, duplicated, unknown);
    }
}
