package dev.ourios.cli;

import dev.ourios.core.FileNames;
import dev.ourios.parquet.footer.FileFooter;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ourios inspect PATH}: a file's footer, or for a partition directory its manifest and every file's footer. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Show a Parquet file's footer, or a partition directory's manifest and files")
public final class InspectCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", description = "A .parquet file or a partition directory")
    Path path;

    @Option(names = "--json", description = "Machine-readable output")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Path p = path.toAbsolutePath().normalize();
        if (!Files.exists(p)) {
            throw new UsageException(path + ": no such file or directory");
        }
        Output out = Output.system();
        if (Files.isDirectory(p)) {
            LocalObjectStore store = new LocalObjectStore(p);
            List<ObjectInfo> objects = store.listObjects("");
            ObjectInfo manifest = null;
            for (ObjectInfo o : objects) {
                if (FileNames.manifestGeneration(o.name()) >= 0) {
                    manifest = o; // listings are sorted, so the last one is the highest generation
                }
            }
            if (manifest != null) {
                Manifest m = new ManifestCodec().decode(store.describe(manifest.key()), store.readAllBytes(manifest.key()));
                if (json) {
                    var o = Output.obj();
                    o.put("manifest", manifest.name());
                    o.put("generation", m.generation());
                    o.put("files", m.files());
                    o.put("retired", m.retired().stream().map(r -> Map.of("file", r.file(), "at", r.at().toString())).toList());
                    out.jsonLine(o);
                } else {
                    out.out().printf("manifest %s: generation %d, files %s, %d retired%n", manifest.name(),
                            m.generation(), m.files(), m.retired().size());
                }
            } else if (!json) {
                out.out().println("no manifest (generation 0): every ingest file is live");
            }
            for (ObjectInfo o : objects) {
                if (o.name().endsWith(FileNames.PARQUET) && !FileNames.isTempFile(o.name())) {
                    print(out, FooterInspector.inspect(store, o.key()));
                }
            }
        } else {
            LocalObjectStore store = new LocalObjectStore(p.getParent());
            print(out, FooterInspector.inspect(store, p.getFileName().toString()));
        }
        return 0;
    }

    private void print(Output out, FileFooter f) {
        if (json) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("file", f.file());
            o.put("bytes", f.fileBytes());
            o.put("rows", f.rows());
            o.put("created_by", f.createdBy());
            o.put("time_column", f.timeColumn());
            List<Map<String, Object>> groups = new ArrayList<>();
            for (FileFooter.RowGroup g : f.rowGroups()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("rows", g.rows());
                m.put("compressed_bytes", g.compressedBytes());
                m.put("uncompressed_bytes", g.uncompressedBytes());
                m.put("min_service", g.minServiceName());
                m.put("max_service", g.maxServiceName());
                m.put("min_time", g.minTime() == null ? null : time(g.minTime()));
                m.put("max_time", g.maxTime() == null ? null : time(g.maxTime()));
                m.put("sorting_columns", g.sortingColumns());
                m.put("bloom_filters", g.bloomFilterColumns());
                m.put("codecs", g.codecs());
                groups.add(m);
            }
            o.put("row_groups", groups);
            o.put("schema", f.schema());
            out.jsonLine(o);
            return;
        }
        var w = out.out();
        w.printf("%s%n  %s, %d rows, %d row group(s), created by %s%n", f.file(), Units.formatBytes(f.fileBytes()),
                f.rows(), f.rowGroups().size(), f.createdBy());
        int i = 0;
        for (FileFooter.RowGroup g : f.rowGroups()) {
            w.printf("  row group %d: %d rows, %s compressed (%s raw), service [%s .. %s], %s [%s .. %s]%n", i++,
                    g.rows(), Units.formatBytes(g.compressedBytes()), Units.formatBytes(g.uncompressedBytes()),
                    g.minServiceName(), g.maxServiceName(), f.timeColumn(),
                    g.minTime() == null ? "-" : time(g.minTime()), g.maxTime() == null ? "-" : time(g.maxTime()));
            w.printf("    sorting columns: %s; bloom filters: %s; codecs: %s%n",
                    g.sortingColumns().isEmpty() ? "none" : String.join(", ", g.sortingColumns()),
                    g.bloomFilterColumns().isEmpty() ? "none" : String.join(", ", g.bloomFilterColumns()),
                    String.join(", ", g.codecs()));
        }
        w.println("  schema:");
        f.schema().lines().forEach(l -> w.println("    " + l));
    }

    private static String time(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L))
                .toString();
    }
}
