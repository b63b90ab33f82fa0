package dev.ourios.query;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The first {@code keep} hits of a partition in the query's order. With a limit only that many rows are held (a
 * heap whose head is the worst kept row), so a broad query with a small limit does not buffer a whole hour;
 * without a limit every hit is held, since the partition's rows must be sorted across its files before any is
 * returned.
 */
final class TopRows {
    private final Comparator<Hit> order;
    private final long keep;
    private final PriorityQueue<Hit> bounded;
    private final List<Hit> all;

    TopRows(Comparator<Hit> order, long keep) {
        this.order = order;
        this.keep = keep;
        boolean bound = keep < Integer.MAX_VALUE;
        this.bounded = bound ? new PriorityQueue<>((int) Math.max(1, Math.min(keep, 1024)), order.reversed()) : null;
        this.all = bound ? null : new ArrayList<>();
    }

    void add(Hit h) {
        if (all != null) {
            all.add(h);
            return;
        }
        if (keep == 0) {
            return;
        }
        if (bounded.size() < keep) {
            bounded.add(h);
        } else if (order.compare(h, bounded.peek()) < 0) {
            bounded.poll();
            bounded.add(h);
        }
    }

    /** Adds another thread's kept hits (the first {@code keep} of both stay). */
    void addAll(TopRows other) {
        for (Hit h : other.all != null ? other.all : other.bounded) {
            add(h);
        }
    }

    /** The kept hits, sorted. */
    List<Hit> sorted() {
        List<Hit> out = new ArrayList<>(all != null ? all : bounded);
        out.sort(order);
        return out;
    }
}
