package dev.ourios.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Repeated timings of one variant: the median is what reports quote, min–max shows the spread. */
public record Samples(List<Double> values) {

    public Samples {
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no samples");
        }
    }

    public double median() {
        List<Double> s = sorted();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    public double min() {
        return sorted().get(0);
    }

    public double max() {
        return sorted().get(values.size() - 1);
    }

    private List<Double> sorted() {
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        return s;
    }

    @Override
    public String toString() {
        return String.format("%.3f (%.3f–%.3f, n=%d)", median(), min(), max(), values.size());
    }
}
