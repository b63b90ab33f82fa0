package dev.ourios.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;

/** The row count of a Parquet file on local disk, from its footer, read with parquet-java (not our reader). */
final class ParquetFooter {
    private ParquetFooter() {
    }

    static long rows(Path file) throws IOException {
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
            return r.getRecordCount();
        }
    }
}
