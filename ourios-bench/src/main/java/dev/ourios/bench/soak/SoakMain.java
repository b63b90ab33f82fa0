package dev.ourios.bench.soak;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code ourios-bench soak ...}: runs one soak, prints the Markdown report on stdout (progress on stderr), writes
 * {@code soak-<tenants>t-<rate>.md/.json/.svg} under {@code --out}. Exit status 0 when every invariant held, 1 when
 * one failed, 2 on bad usage.
 */
public final class SoakMain {
    private SoakMain() {
    }

    public static int run(List<String> args) throws Exception {
        SoakOptions o;
        try {
            o = SoakOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        SoakResult r = new SoakRun(o, System.err::println).run();
        String base = o.classes().isEmpty() ? "soak-" + o.tenants() + "t-" + o.rate()
                : "soak-classes-" + (o.rollup() ? "rollup" : "hourly");
        Files.createDirectories(o.outDir());
        Path svg = o.outDir().resolve(base + ".svg");
        Files.writeString(svg, new SoakChart(r.samples(), r.ingestSeconds(), String.format(
                "soak: %d tenant(s), %,d lines/s target, %d hours", o.tenants() * Math.max(1, o.classes().size()), o.rate(),
                o.hours())).svg(),
                StandardCharsets.UTF_8);
        SoakReport report = new SoakReport(r);
        String md = report.markdown(svg.getFileName().toString());
        Files.writeString(o.outDir().resolve(base + ".md"), md, StandardCharsets.UTF_8);
        Files.writeString(o.outDir().resolve(base + ".json"), report.json() + "\n", StandardCharsets.UTF_8);
        System.out.println(md);
        System.err.println("wrote " + o.outDir().resolve(base) + ".{md,json,svg}");
        return r.passed() ? 0 : 1;
    }
}
