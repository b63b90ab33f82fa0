package dev.ourios.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What a finished query's scan did, from Spark's executed plan (adaptive execution is off, so the plan is final):
 * the files it read and the filters it pushed into the reader, which is how pruning shows.
 *
 * @param filesRead     files the scan read: a Parquet scan's {@code numFiles}, an Iceberg scan's
 *                      {@code resultDataFiles}; -1 for a scan without either metric
 * @param pushedFilters the scan's pushed filters as Spark prints them
 */
record ScanFacts(long filesRead, String pushedFilters) {
    static ScanFacts of(Dataset<Row> executed) {
        List<SparkPlan> leaves = new ArrayList<>();
        CollectionConverters.asJava(executed.queryExecution().executedPlan().collectLeaves()).forEach(leaves::add);
        for (SparkPlan leaf : leaves) {
            if (leaf instanceof FileSourceScanExec scan) {
                long files = scan.metrics().get("numFiles").map(m -> m.value()).getOrElse(() -> -1L);
                String pushed = scan.metadata().get("PushedFilters").getOrElse(() -> "[]");
                return new ScanFacts(files, pushed);
            }
            if (leaf instanceof BatchScanExec scan) {
                // Iceberg's scan reports the data files it planned after pruning by partition and file bounds.
                long files = scan.metrics().get("resultDataFiles").map(m -> m.value()).getOrElse(() -> -1L);
                return new ScanFacts(files, scan.scan().description());
            }
        }
        return new ScanFacts(-1, "[]");
    }
}
