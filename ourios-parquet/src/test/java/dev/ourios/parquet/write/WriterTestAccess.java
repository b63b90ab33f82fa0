package dev.ourios.parquet.write;

import dev.ourios.store.AtomicOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import org.apache.parquet.column.ParquetProperties;

/** The writer's package-private seams, for the tests of the other packages (the readers' differential tests). */
public final class WriterTestAccess {
    private WriterTestAccess() {
    }

    /**
     * A writer whose parquet-java properties {@code encoding} changes last, with our page encoder ({@code ownPages})
     * or parquet-java's column writers: files as other writers may write them.
     */
    public static LogFileWriter writer(AtomicOutput output, WriterOptions options,
            UnaryOperator<ParquetProperties.Builder> encoding, boolean ownPages) throws IOException {
        return new LogFileWriter(output, options, encoding, ownPages);
    }

    /** {@code values[0, count)} as our page encoder writes them in the RLE / bit-packing hybrid at {@code bitWidth}. */
    public static byte[] rleHybrid(int[] values, int count, int bitWidth) {
        PageBytes out = new PageBytes(16);
        out.rleHybrid(values, count, bitWidth);
        return Arrays.copyOf(out.array(), out.size());
    }
}
