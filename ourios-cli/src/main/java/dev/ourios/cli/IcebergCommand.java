package dev.ourios.cli;

import dev.ourios.cli.config.FlagDefaults;
import dev.ourios.iceberg.IcebergView;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.iceberg.SyncResult;
import dev.ourios.iceberg.ViewForm;
import dev.ourios.iceberg.ViewFormException;
import dev.ourios.store.ObjectStore;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ourios iceberg …}: the store as an Apache Iceberg table that Spark, Trino and others query in place. */
@Command(name = "iceberg", mixinStandardHelpOptions = true, description = "The store as an Apache Iceberg table (iceberg/logs in the store)",
        subcommands = {IcebergCommand.Sync.class})
public final class IcebergCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; see 'ourios iceberg --help'");
    }

    /**
     * {@code ourios iceberg sync}: brings the Iceberg view in line with the live set, in one new snapshot. Reads
     * manifests and the footers of files the view lacks; writes only under {@code iceberg/logs/metadata/}.
     */
    @Command(name = "sync", mixinStandardHelpOptions = true, defaultValueProvider = FlagDefaults.IcebergSync.class,
            description = "Publish the live set as a new Iceberg snapshot (no data is copied)")
    public static final class Sync implements Callable<Integer> {
        @Mixin
        StoreOptions store;

        @Option(names = "--json", description = "One JSON object with what the sync did")
        boolean json;

        @Option(names = "--time-type", paramLabel = "TYPE",
                description = "Type of the view's time columns when the sync makes it: timestamp_ns (Iceberg v3; "
                        + "Iceberg's Java library, engines with nanosecond timestamps) or long (nanoseconds since the "
                        + "epoch; Spark). A view keeps its type: delete <store>/iceberg to change it "
                        + "(default: ${DEFAULT-VALUE})")
        String timeType;

        private ViewForm form() {
            try {
                return ViewForm.of(timeType);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--time-type: " + e.getMessage());
            }
        }

        @Override
        public Integer call() throws Exception {
            ViewForm form = form();
            Output out = Output.system();
            try (ObjectStore s = store.open()) {
                IcebergView view = IcebergWiring.view(s, store.uri());
                SyncResult r;
                try {
                    r = IcebergWiring.sync(s, view, Clock.systemUTC(), form).sync();
                } catch (ViewFormException e) {
                    throw new JobFailedException(e.getMessage(), e);
                }
                if (json) {
                    var o = Output.obj();
                    o.put("table", view.tableUri());
                    o.put("changed", r.changed());
                    o.put("version", r.version());
                    o.put("snapshot_id", r.snapshotId());
                    o.put("full", r.full());
                    o.put("partitions_read", r.partitionsRead());
                    o.put("partitions_changed", r.partitionsChanged());
                    o.put("files_added", r.filesAdded());
                    o.put("files_removed", r.filesRemoved());
                    o.put("live_files", r.liveFiles());
                    o.put("columns_added", r.columnsAdded());
                    o.put("attempts", r.attempts());
                    o.put("seconds", r.elapsed().toNanos() / 1e9);
                    out.jsonLine(o);
                } else if (r.changed()) {
                    out.out().printf("iceberg sync: %s version %d, snapshot %d: %d of %d partition(s) changed, +%d -%d "
                            + "file(s), %d live file(s)%s in %.2f s%n", view.tableUri(), r.version(), r.snapshotId(),
                            r.partitionsChanged(), r.partitionsRead(), r.filesAdded(), r.filesRemoved(), r.liveFiles(),
                            r.columnsAdded().isEmpty() ? "" : ", columns added " + r.columnsAdded(),
                            r.elapsed().toNanos() / 1e9);
                } else {
                    out.out().printf("iceberg sync: %s version %d unchanged (%d partition(s) read, %d live file(s)) "
                            + "in %.2f s%n", view.tableUri(), r.version(), r.partitionsRead(), r.liveFiles(),
                            r.elapsed().toNanos() / 1e9);
                }
                return 0;
            }
        }
    }
}
