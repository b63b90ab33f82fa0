package dev.ourios.bench.soak;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak's timeline as a hand-written SVG (no chart library), three panels against wall time: backlog (with the
 * partitions sealed so far), file counts (ingest files landed vs live files vs partitions) and bytes (landed, live,
 * stored). A dashed line marks the end of ingest.
 */
public final class SoakChart {
    private static final int W = 400;
    private static final int H = 250;
    private static final int PAD = 55;
    private static final String[] COLORS = {"#d62728", "#1f77b4", "#2ca02c", "#7f7f7f"};

    /** One line of a panel. */
    private record Series(String label, ToDoubleFunction<Sample> value) {
    }

    private final List<Sample> samples;
    private final double ingestEndSeconds;
    private final String title;

    public SoakChart(List<Sample> samples, double ingestEndSeconds, String title) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples to chart");
        }
        this.samples = List.copyOf(samples);
        this.ingestEndSeconds = ingestEndSeconds;
        this.title = title;
    }

    public String svg() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"11\">%n", 3 * W, H + 70));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"16\" font-weight=\"bold\" font-size=\"13\">%s</text>%n",
                PAD, escape(title)));
        panel(sb, 0, "backlog (partitions)", List.of(
                new Series("backlog", s -> s.store().backlog()),
                new Series("sealed", s -> s.store().sealed())));
        panel(sb, W, "files", List.of(
                new Series("ingest files landed", s -> s.ingest().files()),
                new Series("live files", s -> s.store().liveFiles()),
                new Series("partitions", s -> s.store().partitions())));
        panel(sb, 2 * W, "MiB", List.of(
                new Series("landed", s -> s.ingest().bytes() / 1048576.0),
                new Series("live", s -> s.store().liveBytes() / 1048576.0),
                new Series("stored (incl. retired)", s -> s.store().storedBytes() / 1048576.0)));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">x: wall seconds since start; dashed line: "
                + "ingest stops</text>%n", PAD, H + 62));
        return sb.append("</svg>\n").toString();
    }

    private void panel(StringBuilder sb, int x0, String name, List<Series> series) {
        double maxX = Math.max(samples.get(samples.size() - 1).wallSeconds(), 1e-3);
        double maxY = 1;
        for (Series s : series) {
            for (Sample p : samples) {
                maxY = Math.max(maxY, s.value().applyAsDouble(p));
            }
        }
        maxY *= 1.1;
        int left = x0 + PAD;
        int right = x0 + W - 15;
        int top = 40;
        int bottom = H;
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"34\" font-weight=\"bold\">%s</text>%n", left, name));
        line(sb, left, bottom, right, bottom, "black", "");
        line(sb, left, top, left, bottom, "black", "");
        for (int i = 0; i <= 4; i++) {
            double y = bottom - (bottom - top) * i / 4.0;
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    left - 4, y + 4, tick(maxY * i / 4)));
            double x = left + (right - left) * i / 4.0;
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>%n",
                    x, bottom + 14, maxX * i / 4));
        }
        double ex = left + (right - left) * Math.min(1, ingestEndSeconds / maxX);
        line(sb, ex, top, ex, bottom, "#999999", " stroke-dasharray=\"4 3\"");
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String color = COLORS[i % COLORS.length];
            StringBuilder path = new StringBuilder();
            for (Sample p : samples) {
                double px = left + (right - left) * p.wallSeconds() / maxX;
                double py = bottom - (bottom - top) * s.value().applyAsDouble(p) / maxY;
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", px, py));
            }
            sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    path, color));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>%n", left,
                    bottom + 30 + 12 * i, color, escape(s.label())));
        }
    }

    private static void line(StringBuilder sb, double x1, double y1, double x2, double y2, String color,
            String extra) {
        sb.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>%n", x1, y1, x2, y2, color,
                extra));
    }

    private static String tick(double v) {
        return v >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
