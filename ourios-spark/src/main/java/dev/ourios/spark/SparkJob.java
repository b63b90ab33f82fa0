package dev.ourios.spark;

import java.nio.file.Path;
import java.util.Iterator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark side of the opt-in Spark test and of the query-spark bench suite, run in a child JVM (Spark needs its
 * own Jackson, Parquet and Hadoop versions): Spark in local mode with two threads runs the reads of a job file
 * ({@link JobSpec}) and prints, per read, one line a parent parses:
 *
 * <pre>
 * RESULT  NAME  ROWS  FILES_READ  PUSHED_FILTERS
 * TIMING  NAME  MILLIS                 one per measured round: the query run and every row brought to the driver
 * ROW     NAME  FINGERPRINT            with "emit rows": one per matching row ({@link RowFingerprint})
 * REFUSED NAME  CLASS: MESSAGE         the reader refused the read (its first line)
 * </pre>
 *
 * Spark reads the time columns, {@code TIMESTAMP(NANOS)} in the files, as nanosecond integers
 * ({@code spark.sql.legacy.parquet.nanosAsLong}): Spark has no nanosecond timestamp type.
 */
public final class SparkJob {
    private SparkJob() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: SparkJob JOB_FILE");
            System.exit(2);
        }
        JobSpec job = JobSpec.parse(Path.of(args[0]));
        SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("ourios-spark")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                // A final plan to read the scan's metrics from.
                .config("spark.sql.adaptive.enabled", "false")
                .config("spark.sql.legacy.parquet.nanosAsLong", "true")
                .config("spark.sql.session.timeZone", "UTC");
        job.settings().forEach(builder::config);
        SparkSession spark = builder.getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        try {
            for (JobSpec.Read read : job.reads()) {
                run(spark, job, read);
            }
        } finally {
            spark.stop();
        }
    }

    private static void run(SparkSession spark, JobSpec job, JobSpec.Read read) {
        try {
            Dataset<Row> rows = source(spark, read).where(read.where());
            Dataset<Row> query = job.rows() ? rows.selectExpr(RowFingerprint.sql()) : rows;
            long count = 0;
            for (int round = 0; round < job.warmups() + job.measured(); round++) {
                long t0 = System.nanoTime();
                count = 0;
                Iterator<Row> it = query.toLocalIterator();
                while (it.hasNext()) {
                    Row r = it.next();
                    count++;
                    if (job.rows() && round == 0) {
                        System.out.println("ROW\t" + read.name() + "\t" + r.getString(0));
                    }
                }
                if (round >= job.warmups()) {
                    System.out.println("TIMING\t" + read.name() + "\t" + (System.nanoTime() - t0) / 1e6);
                }
            }
            ScanFacts scan = ScanFacts.of(query);
            System.out.println("RESULT\t" + read.name() + "\t" + count + "\t" + scan.filesRead() + "\t"
                    + scan.pushedFilters());
        } catch (RuntimeException e) {
            String message = String.valueOf(rootCause(e).getMessage()).lines().findFirst().orElse("");
            System.out.println("REFUSED\t" + read.name() + "\t" + rootCause(e).getClass().getName() + ": "
                    + message);
        }
    }

    private static Dataset<Row> source(SparkSession spark, JobSpec.Read read) {
        if (read instanceof JobSpec.LiveRead live) {
            return spark.read().parquet(live.paths().toArray(new String[0]));
        }
        JobSpec.ViewRead view = (JobSpec.ViewRead) read;
        String catalog = "spark.sql.catalog.store";
        spark.conf().set(catalog, "org.apache.iceberg.spark.SparkCatalog");
        spark.conf().set(catalog + ".type", "hadoop");
        spark.conf().set(catalog + ".warehouse", view.warehouse());
        return spark.table("store." + view.table());
    }

    private static Throwable rootCause(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c;
    }
}
