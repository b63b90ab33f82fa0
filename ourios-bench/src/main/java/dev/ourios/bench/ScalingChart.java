package dev.ourios.bench;

import java.util.List;
import java.util.Locale;

/**
 * A two-panel SVG line chart written by hand (no library): throughput (MiB/s) and peak heap (MiB) against
 * partition size on a log2 axis, one line per mode.
 */
public final class ScalingChart {
    private static final int W = 420;
    private static final int H = 260;
    private static final int PAD = 50;
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c"};

    public record Point(String mode, double inputMib, double mibPerSec, double peakHeapMib) {
    }

    private final List<Point> points;

    public ScalingChart(List<Point> points) {
        this.points = List.copyOf(points);
    }

    public String svg() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"11\">%n", 2 * W, H + 30));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        panel(sb, 0, "sorted compaction throughput (MiB/s of input)", true);
        panel(sb, W, "peak heap (MiB)", false);
        List<String> modes = points.stream().map(Point::mode).distinct().toList();
        for (int i = 0; i < modes.size(); i++) {
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>%n", PAD + 120 * i,
                    H + 20, COLORS[i % COLORS.length], modes.get(i)));
        }
        return sb.append("</svg>\n").toString();
    }

    private void panel(StringBuilder sb, int x0, String title, boolean throughput) {
        double minX = log2(points.stream().mapToDouble(Point::inputMib).min().orElse(1));
        double maxX = log2(points.stream().mapToDouble(Point::inputMib).max().orElse(2));
        if (maxX - minX < 1e-9) {
            maxX = minX + 1;
        }
        double maxY = points.stream().mapToDouble(p -> throughput ? p.mibPerSec() : p.peakHeapMib()).max()
                .orElse(1) * 1.15;
        int left = x0 + PAD;
        int right = x0 + W - 15;
        int top = 25;
        int bottom = H - 30;
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"15\" font-weight=\"bold\">%s</text>%n", left,
                title));
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                left, bottom, right, bottom));
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                left, top, left, bottom));
        for (int i = 0; i <= 4; i++) {
            double v = maxY * i / 4;
            double y = bottom - (bottom - top) * i / 4.0;
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>%n",
                    left - 4, y + 4, v));
        }
        double[] xs = points.stream().mapToDouble(Point::inputMib).distinct().sorted().toArray();
        for (double x : xs) {
            double px = left + (right - left) * (log2(x) - minX) / (maxX - minX);
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f MiB</text>%n",
                    px, bottom + 15, x));
        }
        List<String> modes = points.stream().map(Point::mode).distinct().toList();
        for (int m = 0; m < modes.size(); m++) {
            String mode = modes.get(m);
            StringBuilder path = new StringBuilder();
            for (Point p : points.stream().filter(p -> p.mode().equals(mode))
                    .sorted(java.util.Comparator.comparingDouble(Point::inputMib)).toList()) {
                double px = left + (right - left) * (log2(p.inputMib()) - minX) / (maxX - minX);
                double v = throughput ? p.mibPerSec() : p.peakHeapMib();
                double py = bottom - (bottom - top) * v / maxY;
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", px, py));
                sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", px, py,
                        COLORS[m % COLORS.length]));
            }
            sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    path, COLORS[m % COLORS.length]));
        }
    }

    private static double log2(double v) {
        return Math.log(Math.max(v, 1e-9)) / Math.log(2);
    }
}
